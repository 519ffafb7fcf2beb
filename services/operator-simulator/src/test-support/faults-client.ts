import { request, type IncomingHttpHeaders } from 'node:http';

export interface FaultsBody {
  latency_ms: number;
  fail_with_5xx: boolean;
  unreachable: boolean;
  callbacks: 'normal' | 'drop' | 'repeat' | 'out-of-order';
  callback_repeat: number;
  callback_spread_ms: number;
}

export const NO_FAULTS_BODY: FaultsBody = {
  latency_ms: 0,
  fail_with_5xx: false,
  unreachable: false,
  callbacks: 'normal',
  callback_repeat: 5,
  callback_spread_ms: 500,
};

/** /sandbox/faults over HTTP with the sandbox token, as the chaos suite drives it from another process. */
export function faultsClient(baseUrl: string, sandboxToken: string) {
  const auth = { Authorization: `Bearer ${sandboxToken}` };
  const call = (method: 'GET' | 'PUT' | 'DELETE', body?: string) =>
    fetch(`${baseUrl}/sandbox/faults`, {
      method,
      headers: body === undefined ? auth : { ...auth, 'Content-Type': 'application/json' },
      body,
    });
  const settings = async (res: Response) => {
    if (res.status !== 200) throw new Error(`/sandbox/faults answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as FaultsBody;
  };
  return {
    /** The raw answer to a PUT of this exact body text, for validation tests. */
    putRaw: (body: string) => call('PUT', body),
    get: async () => settings(await call('GET')),
    set: async (change: Partial<FaultsBody>) => settings(await call('PUT', JSON.stringify(change))),
    reset: async () => settings(await call('DELETE')),
  };
}

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * One request on a fresh connection with node:http, so a reset surfaces as the socket error it is (ECONNRESET)
 * rather than whatever fetch's pool makes of it. Rejects with that error; aborting the signal hangs up.
 */
export function rawRequest(
  url: string,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        agent: false,
        signal,
        headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}
