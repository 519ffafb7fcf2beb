/**
 * The flow ceiling's service: a cash-in's four exchanges built bare, the least a service can do for a
 * completed cash-in on this machine. node:http and a pg pool of 10 (DB_POOL_SIZE), no framework, no
 * queue; its SQL is support/flow-sql.ts, its tables its own, created at start.
 *
 * - POST /cashin (merchant → service): the API's HMAC check (X-Service-Key, -Timestamp, -Signature),
 *   INSERT the CREATED row, POST /push to the operator (OPERATOR_URL) over a keep-alive agent, move
 *   the row CREATED → PENDING, answer 202.
 * - POST /callback (operator → service): HMAC check with the operator's secret, one transaction (SUCCESS,
 *   two journal rows, the webhook event row), answer 200; then the signed webhook to the cash-in's
 *   notify_url over a keep-alive agent, and its attempt row.
 *
 * Settings: DATABASE_URL, OPERATOR_URL, FLOW_API_KEY and FLOW_API_SECRET (the merchant's key; webhooks
 * are signed with the secret, as the system does), FLOW_OPERATOR_SECRET. It prints its URL on stdout.
 */
import { randomUUID } from 'node:crypto';
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { signatureMatches, signPayload, timestampWithinTolerance, transactionStatusChangedPayload } from '@mm/domain';
import {
  capture,
  createFlowTables,
  flowPool,
  insertCashin,
  markPending,
  recordAttempt,
  type Captured,
} from '../support/flow-sql.js';

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};
const operatorUrl = env('OPERATOR_URL');
const apiKey = env('FLOW_API_KEY');
const apiSecret = env('FLOW_API_SECRET');
const operatorSecret = env('FLOW_OPERATOR_SECRET');
const TOLERANCE_S = 300;

const pool = flowPool();
await createFlowTables(pool);
const operatorAgent = new Agent({ keepAlive: true });
// Idle connections closed after 4 s, below the receiver's keep-alive timeout (Node's 5 s), as the dispatcher's.
const webhookAgent = new Agent({ keepAlive: true, timeout: 4_000 });
let ownUrl = '';

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const signed = (req: IncomingMessage, secret: string, body: Buffer) => {
  const timestamp = req.headers['x-service-timestamp'];
  const signature = req.headers['x-service-signature'];
  return (
    typeof timestamp === 'string' &&
    typeof signature === 'string' &&
    timestampWithinTolerance(timestamp, Date.now(), TOLERANCE_S) &&
    signatureMatches(secret, timestamp, body, signature)
  );
};

/**
 * A JSON POST over `agent`: the status and the answer's text (read in full, so the socket goes back to
 * the agent). A kept-alive connection the receiver closed while idle is reset when reused, before any
 * answer: sent again once, as the system's webhook dispatcher does (Node's documented rule).
 */
function post(
  agent: Agent,
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; text: string }> {
  return postOnce(agent, url, body, headers).catch((err: NodeJS.ErrnoException & { reusedSocket?: boolean }) => {
    if (err.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE'))
      return postOnce(agent, url, body, headers);
    throw err;
  });
}

function postOnce(
  agent: Agent,
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      },
    );
    req.on('error', (err) => reject(Object.assign(err, { reusedSocket: req.reusedSocket })));
    req.end(body);
  });
}

interface CashinBody {
  merchant_order_id?: unknown;
  amount?: unknown;
  customer_msisdn?: unknown;
  notify_url?: unknown;
}

async function cashin(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const raw = await readBody(req);
  if (req.headers['x-service-key'] !== apiKey || !signed(req, apiSecret, raw))
    return answer(res, 401, { error: { code: 'INVALID_SIGNATURE' } });
  const b = JSON.parse(raw.toString()) as CashinBody;
  if (
    typeof b.merchant_order_id !== 'string' ||
    typeof b.amount !== 'number' ||
    typeof b.customer_msisdn !== 'string' ||
    typeof b.notify_url !== 'string'
  ) {
    return answer(res, 400, { error: { code: 'VALIDATION_ERROR' } });
  }
  const id = randomUUID();
  if (
    !(await insertCashin(pool, {
      id,
      merchantOrderId: b.merchant_order_id,
      amount: b.amount,
      msisdn: b.customer_msisdn,
      notifyUrl: b.notify_url,
    }))
  ) {
    return answer(res, 409, { error: { code: 'DUPLICATE_ORDER' } });
  }
  const push = JSON.stringify({
    reference: id,
    amount: b.amount,
    msisdn: b.customer_msisdn,
    callback_url: `${ownUrl}/callback`,
  });
  const pushed = await post(operatorAgent, `${operatorUrl}/push`, push, {});
  if (pushed.status !== 200) return answer(res, 502, { error: { code: 'OPERATOR_ERROR', status: pushed.status } });
  // The operator calls back at once: its SUCCESS may already be in.
  const status = (await markPending(pool, id)) ? 'PENDING' : 'SUCCESS';
  answer(res, 202, { data: { transaction_id: id, merchant_order_id: b.merchant_order_id, status } });
}

async function callback(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const raw = await readBody(req);
  if (!signed(req, operatorSecret, raw)) return answer(res, 401, { error: { code: 'INVALID_SIGNATURE' } });
  const b = JSON.parse(raw.toString()) as { reference: string; status: string; operator_tx_id: string };
  if (b.status !== 'SUCCESS') return answer(res, 400, { error: { code: 'UNSUPPORTED_STATUS' } });
  const occurredAt = new Date();
  const eventId = randomUUID();
  const captured = await capture(pool, b.reference, b.operator_tx_id, eventId, (t) =>
    transactionStatusChangedPayload(
      {
        id: t.id,
        merchantOrderId: t.merchantOrderId,
        type: 'CASHIN',
        status: 'SUCCESS',
        amount: t.amount,
        currency: 'XOF',
        countryCode: 'CI',
        providerTxId: b.operator_tx_id,
        failureCode: null,
        failureReason: null,
        operator: 'SIMULATOR',
      },
      eventId,
      occurredAt,
    ),
  );
  answer(res, 200, { received: true, duplicate: captured === null });
  if (captured) await deliver(captured);
}

/** The signed webhook, then its attempt row; a failed delivery is recorded, not retried (the bench counts it as lost). */
async function deliver(c: Captured): Promise<void> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const started = performance.now();
  const sent = await post(webhookAgent, c.notifyUrl, c.body, {
    'x-service-timestamp': timestamp,
    'x-service-signature': signPayload(apiSecret, timestamp, c.body),
    'x-service-event-id': c.eventId,
  }).catch((err: unknown) => {
    console.error(`webhook of ${c.merchantOrderId}: ${String(err)}`);
    return null;
  });
  await recordAttempt(pool, c.eventId, sent?.status ?? null, Math.round(performance.now() - started));
}

const server = createServer((req, res) => {
  const handle =
    req.method === 'POST' && req.url === '/cashin'
      ? cashin
      : req.method === 'POST' && req.url === '/callback'
        ? callback
        : null;
  if (!handle) return answer(res, 404, { error: { code: 'NOT_FOUND' } });
  handle(req, res).catch((err: unknown) => {
    console.error(`${req.url}: ${String(err)}`);
    if (!res.headersSent) answer(res, 500, { error: { code: 'INTERNAL', message: String(err) } });
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') {
    ownUrl = `http://127.0.0.1:${address.port}`;
    console.log(ownUrl);
  }
});
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  operatorAgent.destroy();
  webhookAgent.destroy();
  void pool.end().then(() => process.exit(0));
});
