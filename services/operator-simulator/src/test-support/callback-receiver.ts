import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedCallback {
  rawBody: Buffer;
  headers: IncomingHttpHeaders;
  /** What the receiver answered to this attempt. */
  answered: number;
}

export interface CallbackReceiver {
  url: string;
  received: ReceivedCallback[];
  /** Attempts whose body names this reference, in arrival order. */
  for(partnerReference: string): ReceivedCallback[];
  close(): Promise<void>;
}

/** A bare node:http server standing in for the operator bridge's callback route. */
export async function startCallbackReceiver(
  statusFor: (attempt: number, partnerReference: string) => number = () => 200,
): Promise<CallbackReceiver> {
  const received: ReceivedCallback[] = [];
  const referenceOf = (c: ReceivedCallback) =>
    (JSON.parse(c.rawBody.toString('utf8')) as { partner_reference: string }).partner_reference;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const callback: ReceivedCallback = { rawBody: Buffer.concat(chunks), headers: req.headers, answered: 0 };
      const reference = referenceOf(callback);
      callback.answered = statusFor(received.filter((c) => referenceOf(c) === reference).length, reference);
      received.push(callback);
      res.writeHead(callback.answered, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/operator/callback`,
    received,
    for: (reference) => received.filter((c) => referenceOf(c) === reference),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
