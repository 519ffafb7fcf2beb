import { request as httpRequest, type Agent as HttpAgent } from 'node:http';
import { request as httpsRequest, type Agent as HttpsAgent } from 'node:https';

export interface PostBodyOptions {
  headers: Record<string, string>;
  /** The whole exchange, from the request to the end of the answer's body. */
  timeoutMs: number;
  signal: AbortSignal;
  agents: { http: HttpAgent; https: HttpsAgent };
}

/**
 * POSTs `body` as given (the signed bytes) and resolves with the answer's status once its body has been
 * read, which hands the connection back to the agent; rejects on a network error, the timeout or an
 * abort. Node's own client: axios's per-request work (config merging, header objects, proxy lookup,
 * transforms) was a quarter of the simulator's CPU under load, for a request that needs none of it.
 */
export function postBody(url: string, body: string, o: PostBodyOptions): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const secure = target.protocol === 'https:';
    const send = secure ? httpsRequest : httpRequest;
    const req = send(
      target,
      {
        method: 'POST',
        agent: secure ? o.agents.https : o.agents.http,
        headers: { ...o.headers, 'Content-Length': String(Buffer.byteLength(body)) },
        signal: o.signal,
      },
      (res) => {
        res.once('error', fail);
        // Destroyed before its end (the timeout, an abort) without an error of its own: still settled.
        res.once('close', () => {
          if (!res.complete) fail(new Error('the answer was cut off'));
        });
        res.once('end', () => {
          clearTimeout(timer);
          resolve(res.statusCode ?? 0);
        });
        res.resume();
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`timeout of ${o.timeoutMs}ms exceeded`)), o.timeoutMs);
    function fail(err: Error): void {
      clearTimeout(timer);
      reject(err);
    }
    req.once('error', fail);
    req.end(body);
  });
}
