import { request } from 'node:http';

/**
 * A fetch that connects from `localAddress` (any of 127.0.0.0/8 on Linux): tests that count per
 * client address send from an address of their own. Plain http only; the answer is read whole.
 */
export function fetchFrom(localAddress: string): typeof fetch {
  return (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const headers = new Headers(init.headers);
    const body =
      typeof init.body === 'string'
        ? Buffer.from(init.body)
        : init.body == null
          ? null
          : Buffer.from(init.body as ArrayBuffer);
    if (body) headers.set('content-length', String(body.length));
    return new Promise<Response>((resolve, reject) => {
      const req = request(
        url,
        {
          method: init.method ?? 'GET',
          headers: Object.fromEntries(headers),
          localAddress,
          signal: init.signal ?? undefined,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const h = new Headers();
            for (const [k, v] of Object.entries(res.headers))
              if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
            const status = res.statusCode ?? 0;
            resolve(
              new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers: h }),
            );
          });
        },
      );
      req.on('error', reject);
      req.end(body ?? undefined);
    });
  }) as typeof fetch;
}
