/**
 * The flow ceiling's operator: POST /push records the push (in memory, as the system's simulator
 * does), answers 200, then at once calls back the push's callback_url with a signed SUCCESS over a
 * keep-alive agent (a callback that gets no 200 is tried again after 1 s, twice at most). Settings:
 * FLOW_OPERATOR_SECRET. It prints its URL on stdout.
 */
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { signPayload } from '@mm/domain';

const secret = process.env.FLOW_OPERATOR_SECRET;
if (!secret) throw new Error('FLOW_OPERATOR_SECRET is required');

interface Push {
  reference: string;
  amount: number;
  msisdn: string;
  callback_url: string;
}

const pushes = new Map<string, Push & { receivedAt: number; calledBackAt?: number }>();
const agent = new Agent({ keepAlive: true });
let sequence = 0;
let failedCallbacks = 0;

function answer(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function callBack(push: Push, operatorTxId: string, attempt = 1): void {
  const body = JSON.stringify({ reference: push.reference, status: 'SUCCESS', operator_tx_id: operatorTxId });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const retry = (why: string) => {
    if (attempt < 3) setTimeout(() => callBack(push, operatorTxId, attempt + 1), 1000);
    else {
      failedCallbacks++;
      console.error(`callback of ${push.reference} failed ${attempt} times: ${why}`);
    }
  };
  const req = request(
    push.callback_url,
    {
      method: 'POST',
      agent,
      headers: {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'x-service-timestamp': timestamp,
        'x-service-signature': signPayload(secret!, timestamp, body),
      },
    },
    (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode === 200) pushes.get(push.reference)!.calledBackAt = Date.now();
        else retry(`status ${res.statusCode}`);
      });
    },
  );
  req.on('error', (err) => retry(String(err)));
  req.end(body);
}

function handlePush(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const push = JSON.parse(Buffer.concat(chunks).toString()) as Push;
    pushes.set(push.reference, { ...push, receivedAt: Date.now() });
    const operatorTxId = `OP${++sequence}`;
    answer(res, 200, { status: 'PENDING', reference: push.reference });
    callBack(push, operatorTxId);
  });
}

const server = createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/push') handlePush(req, res);
  else answer(res, 404, { error: 'not found' });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`http://127.0.0.1:${address.port}`);
});
process.on('SIGTERM', () => {
  if (failedCallbacks > 0) console.error(`${failedCallbacks} callbacks never answered 200 (of ${pushes.size} pushes)`);
  server.close();
  server.closeAllConnections();
  agent.destroy();
  process.exit(0);
});
