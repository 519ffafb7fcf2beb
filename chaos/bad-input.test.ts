import { createHash, randomUUID } from 'node:crypto';
import { request, type IncomingHttpHeaders } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { signPayload } from '@mm/domain';
import { waitFor } from '@mm/testing';
import { startChaosSystem, type ChaosSystem } from './support/chaos-system.js';
import { settle } from './support/invariants.js';
import { itEndsReconciled } from './support/reconcile-all.js';
import {
  authFault,
  badCashin,
  badCashout,
  badExportQuery,
  badRefund,
  badWebhookQuery,
  breakJson,
  encodeText,
  encodingFault,
  faultyHeaders,
  jsonBreak,
  nested,
  nesting,
  notABody,
  notJsonType,
  spell,
  toJson,
  UUID_SPELLINGS,
} from './support/bad-input.js';

/**
 * Scenario 7, bad input: property-based requests (fast-check) against every endpoint of the real
 * gateway process: invalid bodies, broken authentication, wrong content types, huge, deeply nested and
 * unparseable JSON, garbage ids and query strings. Invariant: a 4xx in the documented error shape
 * (decisions 2 and 3, docs/api.md), never a 2xx or 5xx, and never a state change.
 */
let sys: ChaosSystem;
/** The one real cash-in (SUCCESS), so that refunds of it reach every check. */
let real: { id: string; amount: number };
let before: State;

/** The 4xx codes of decisions.md sections 2 and 3 and docs/api.md (IDEMPOTENCY_KEY_REUSED), with their status. */
const DOCUMENTED_4XX: Record<string, number> = {
  VALIDATION_ERROR: 400,
  INVALID_JSON: 400,
  AUTHENTICATION_REQUIRED: 401,
  INVALID_API_KEY: 401,
  INVALID_SIGNATURE: 401,
  TIMESTAMP_OUT_OF_TOLERANCE: 401,
  REQUEST_REPLAYED: 401,
  MERCHANT_DISABLED: 403,
  NOT_FOUND: 404,
  DUPLICATE_ORDER_ID: 409,
  INVALID_STATE: 409,
  INSUFFICIENT_BALANCE: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  COUNTRY_NOT_SUPPORTED: 422,
  CURRENCY_MISMATCH: 422,
  AMOUNT_OUT_OF_RANGE: 422,
  REFUND_EXCEEDS_AMOUNT: 422,
  RATE_LIMITED: 429,
};
const CASHIN = '/api/v1/payments/cashin';
const REFUNDS = '/api/v1/refunds';
const CASHOUT = '/api/v1/payments/cashout';
const POSTS = [CASHIN, REFUNDS, CASHOUT];

beforeAll(async () => {
  sys = await startChaosSystem({ suite: 'bad-input' });
  const res = await sys.api('POST', CASHIN, {
    merchant_order_id: 'bad-input-real',
    amount: 5000,
    customer_msisdn: '+2250707000001',
  });
  expect(res.status).toBe(202);
  real = { id: res.body.data.transaction_id as string, amount: 5000 };
  await waitFor(
    async () => (await sys.api('GET', `/api/v1/payments/${real.id}`)).body?.data?.status === 'SUCCESS' || undefined,
    { what: 'the real cash-in to succeed', timeoutMs: 30_000, intervalMs: 100 },
  );
  await settle(sys);
  // Its webhook and outbox rows are written asynchronously: wait until two readings a second apart agree.
  let last = '';
  before = await waitFor(
    async () => {
      const now = await state();
      const same = JSON.stringify(now) === last;
      last = JSON.stringify(now);
      return same ? now : (await sleep(1000), undefined);
    },
    { what: 'a stable state', timeoutMs: 30_000 },
  );
});
afterAll(async () => {
  await sys?.stop();
});

describe('bad input against every endpoint: a documented 4xx, never a 5xx, nothing changed', () => {
  afterEach(async () => {
    expect(await state()).toEqual(before);
  });

  it('1a. cash-in bodies with a missing, mistyped, out-of-range or unknown field', async () => {
    await check(badCashin, ({ body }) => refused(post(CASHIN, toJson(body))), 120);
  });

  it('1b. refund bodies: unknown transaction, bad or excessive amount, bad reason or Idempotency-Key', async () => {
    await check(
      badRefund(real.id, real.amount),
      ({ body, headers }) => refused(post(REFUNDS, toJson(body), headers)),
      120,
    );
  });

  it('1c. cash-out bodies refused before the 501 a valid one gets', async () => {
    await check(badCashout, ({ body }) => refused(post(CASHOUT, toJson(body))), 60);
  });

  it('1d. JSON that is no object, or lacks a required field', async () => {
    const required: Record<string, string> = {
      [CASHIN]: 'amount',
      [REFUNDS]: 'transaction_id',
      [CASHOUT]: 'beneficiary_msisdn',
    };
    await check(
      fc.constantFrom(...POSTS).chain((path) => fc.tuple(fc.constant(path), notABody(required[path] ?? ''))),
      ([path, body]) => refused(post(path, toJson(body)), ['VALIDATION_ERROR']),
      60,
    );
  });

  it('2. broken authentication on every endpoint: 401 with the code of decisions 2', async () => {
    const endpoints = [
      ...POSTS.map((path) => ({ method: 'POST', path })),
      ...getPaths().map((path) => ({ method: 'GET', path })),
    ];
    const credentials = { apiKey: sys.merchant.apiKey, secret: sys.merchant.apiSecret, sign: signPayload };
    await check(
      fc.tuple(fc.constantFrom(...endpoints), authFault),
      async ([{ method, path }, fault]) => {
        // A valid body: only the authentication stands between it and a new cash-in or refund.
        const body = method === 'POST' ? validBody(path) : Buffer.alloc(0);
        const { headers, code } = faultyHeaders(fault, credentials, body, Math.floor(Date.now() / 1000));
        await refused(
          {
            method,
            path,
            headers: { ...headers, ...(method === 'POST' ? { 'Content-Type': 'application/json' } : {}) },
            body: method === 'POST' ? body : undefined,
          },
          [code],
        );
      },
      200,
    );
  });

  it('3. a valid, signed body under another media type than application/json: 415', async () => {
    await check(
      fc.tuple(fc.constantFrom(...POSTS), notJsonType),
      async ([path, type]) => {
        const body = validBody(path);
        await refused(
          {
            method: 'POST',
            path,
            headers: { ...sign(body), ...(type === null ? {} : { 'Content-Type': type }) },
            body,
          },
          ['UNSUPPORTED_MEDIA_TYPE'],
        );
      },
      60,
    );
    // application/json with a charset, and the bytes really in UTF-16: not UTF-8 JSON.
    await check(
      fc.tuple(fc.constantFrom(...POSTS), fc.constantFrom('utf-16', 'utf-16le', 'utf-16be', 'UTF-16'), fc.boolean()),
      async ([path, charset, bom]) => {
        const utf16 = Buffer.from(`${bom ? '\ufeff' : ''}${validBody(path).toString()}`, 'utf16le');
        const body = charset === 'utf-16be' ? utf16.swap16() : utf16;
        await refused({
          method: 'POST',
          path,
          headers: { ...sign(body), 'Content-Type': `application/json; charset=${charset}` },
          body,
        });
      },
      16,
    );
  });

  it('4a. bodies over 64 KiB: 413 (and exactly 64 KiB is read)', async () => {
    const padded = (size: number) => {
      const head = '{"merchant_order_id":"big","amount":1000,"customer_msisdn":"+2250707000001","motif":"';
      return Buffer.from(`${head}${'x'.repeat(size - head.length - 2)}"}`);
    };
    await refused(post(CASHIN, padded(64 * 1024)), ['VALIDATION_ERROR']);
    await check(
      fc.record({
        path: fc.constantFrom(...POSTS),
        size: fc.oneof(fc.integer({ min: 64 * 1024 + 1, max: 70_000 }), fc.constant(1 << 20)),
        chunked: fc.boolean(),
      }),
      ({ path, size, chunked }) => refused({ ...post(path, padded(size)), chunked }, ['PAYLOAD_TOO_LARGE']),
      10,
    );
  });

  it('4b. JSON nested up to the 64 KiB limit, at the top and inside fields: 400, and the gateway lives on', async () => {
    const head = '{"merchant_order_id":"deep","amount":1000,"customer_msisdn":"+2250707000001"';
    await check(
      nesting,
      ({ shape, where, depth }) => {
        const fields: Record<string, [string, string]> = {
          metadata: ['"metadata":', ''],
          'metadata-value': ['"metadata":{"k":', '}'],
          amount: ['"amount":', ''],
        };
        const [prefix, suffix] = fields[where] ?? ['', ''];
        const body =
          where === 'top'
            ? nested(shape, depth)
            : `${head},${prefix}${nested(shape, depth, 64 * 1024 - head.length - prefix.length - suffix.length - 2)}${suffix}}`;
        return refused(post(CASHIN, body), ['VALIDATION_ERROR', 'INVALID_JSON']);
      },
      15,
    );
    expect((await fetch(`${sys.gatewayUrl}/health`)).status).toBe(200);
    expect({ running: sys.services.gateway.running, starts: sys.services.gateway.starts }).toEqual({
      running: true,
      starts: 1,
    });
  });

  it('4c. unparseable JSON, signed correctly: 400 INVALID_JSON', async () => {
    // Valid JSON but no valid body of any endpoint: if the break does not break it, the answer is VALIDATION_ERROR.
    const text = '{"merchant_order_id":"broken","customer_msisdn":"+2250707000001","motif":"hello"}';
    await check(
      fc.tuple(fc.constantFrom(...POSTS), jsonBreak),
      ([path, { how, at }]) => refused(post(path, breakJson(text, how, at)), ['INVALID_JSON']),
      60,
    );
  });

  it('4d. a Content-Encoding the body does not have, truncated or inflating past 64 KiB: 4xx, signed or not', async () => {
    const text = Buffer.from('{"merchant_order_id":"zipped","customer_msisdn":"+2250707000001"}');
    const compress = (encoding: string, b: Buffer) =>
      encoding === 'deflate' ? deflateSync(b) : encoding === 'br' ? brotliCompressSync(b) : gzipSync(b);
    await check(
      encodingFault,
      ({ encoding, payload, signed }) => {
        const body =
          payload === 'plain'
            ? text
            : payload === 'truncated'
              ? compress(encoding, text).subarray(0, 12)
              : compress(encoding, Buffer.from(`[${' '.repeat(1 << 20)}]`));
        return refused({
          method: 'POST',
          path: CASHIN,
          body,
          headers: { ...(signed ? sign(body) : {}), 'Content-Type': 'application/json', 'Content-Encoding': encoding },
        });
      },
      20,
    );
  });

  it('5a. GET of garbage ids: 404 NOT_FOUND', async () => {
    const segment = fc.oneof(
      fc
        .tuple(fc.uuid(), fc.constantFrom(...UUID_SPELLINGS))
        .map(([u, how]) => ({ id: encodeText(spell(u, how)), malformed: false })),
      fc.string({ unit: 'binary', maxLength: 40 }).map((s) => ({ id: encodeText(s), malformed: false })),
      fc
        .tuple(
          fc.stringMatching(/^[a-z0-9]{0,8}$/),
          fc.constantFrom('%', '%Z', '%ZZ', '%E0%A4%A', '%C3', '%ED%A0%80', '%FF', '%C0%AF'),
        )
        .map(([a, bad]) => ({ id: a + bad, malformed: true })),
    );
    await check(
      fc.tuple(fc.constantFrom('payments', 'refunds'), segment),
      ([resource, { id, malformed }]) =>
        refused(get(`/api/v1/${resource}/${id}`), malformed ? ['NOT_FOUND', 'VALIDATION_ERROR'] : ['NOT_FOUND']),
      60,
    );
  });

  it('5b. GET /transactions/export with bad queries: 400 VALIDATION_ERROR', async () => {
    await check(
      badExportQuery,
      ({ query }) => refused(get(`/api/v1/transactions/export?${query}`), ['VALIDATION_ERROR']),
      60,
    );
  });

  it('5c. GET /webhook-events with bad queries: 400; an unknown transaction in any GUID spelling: 200 [] or 4xx', async () => {
    await check(
      badWebhookQuery,
      ({ query }) => refused(get(`/api/v1/webhook-events?${query}`), ['VALIDATION_ERROR']),
      40,
    );
    // joi's guid() accepts these spellings: a query that passes validation must not end in a 5xx either.
    await check(
      fc.tuple(fc.uuid(), fc.constantFrom(...UUID_SPELLINGS)),
      async ([u, how]) => {
        const x = get(`/api/v1/webhook-events?transaction_id=${encodeText(spell(u, how))}`);
        const a = await send(x);
        const ok = a.status === 200 && JSON.stringify(JSON.parse(a.text)) === '{"data":[]}';
        if (!ok) failIf(x, a, problems(a));
      },
      14,
    );
  });

  it('5d. methods that no endpoint has: 404 NOT_FOUND', async () => {
    const routes = new Set(['POST /api/v1/payments/cashin', 'POST /api/v1/refunds', 'POST /api/v1/payments/cashout']);
    const gets = getPaths();
    const pairs = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']
      .flatMap((m) => [...POSTS, ...gets].map((p) => [m, p] as const))
      .filter(([m, p]) => !routes.has(`${m} ${p}`) && !(m === 'GET' && gets.includes(p)));
    await check(
      fc.constantFrom(...pairs),
      ([method, path]) => {
        const body = method === 'DELETE' ? undefined : validBody(CASHIN);
        return refused(
          {
            method,
            path,
            body,
            headers: { ...sign(body ?? '', method), ...(body ? { 'Content-Type': 'application/json' } : {}) },
          },
          ['NOT_FOUND'],
        );
      },
      40,
    );
  });
});

it('after all of it, the state is the one before', async () => {
  expect(await state()).toEqual(before);
});

it('6. text PostgreSQL cannot store (NUL, lone surrogates) in otherwise valid requests: accepted or a 4xx, never a 5xx', async () => {
  // After the snapshot on purpose: these requests are valid, and may create cash-ins and refunds.
  const hostile = fc
    .tuple(
      fc.string({ maxLength: 10 }),
      fc.constantFrom('\u0000', '\ud800', '\udfff', 'a\u0000b'),
      fc.string({ maxLength: 10 }),
    )
    .map((p) => p.join(''));
  let n = 0;
  await check(
    fc.tuple(fc.constantFrom('motif', 'metadata-value', 'metadata-key', 'reason'), hostile),
    async ([field, text]) => {
      const cashin = { merchant_order_id: `hostile-${++n}`, amount: 1000, customer_msisdn: '+2250707000010' };
      const body =
        field === 'reason'
          ? { transaction_id: real.id, amount: 1, reason: text }
          : {
              ...cashin,
              ...(field === 'motif'
                ? { motif: text }
                : { metadata: field === 'metadata-key' ? { [text]: 'v' } : { k: text } }),
            };
      const x = post(field === 'reason' ? REFUNDS : CASHIN, JSON.stringify(body));
      const a = await send(x);
      if (a.status >= 300) failIf(x, a, problems(a));
    },
    20,
  );
});

// Last, on everything the scenarios above left (docs/reconciliation.md).
itEndsReconciled(() => sys);

// ---- HTTP, signing and the shared check of every answer -----------------------------------------

interface Exchange {
  method: string;
  path: string;
  headers: Record<string, string | string[]>;
  body?: Buffer;
  chunked?: boolean;
}
interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** Node's http client: sends exactly these headers and bytes (fetch would add a Content-Type, refuse others). */
function send(x: Exchange): Promise<Answer> {
  const url = new URL(sys.gatewayUrl);
  const length = x.body && !x.chunked ? { 'Content-Length': String(x.body.length) } : {};
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, method: x.method, path: x.path, headers: { ...x.headers, ...length } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (x.body) req.write(x.body);
    req.end();
  });
}

/** Timestamps already signed per body (by hash): a (timestamp, body) pair is never signed twice. */
const signedAt = new Map<string, Set<number>>();
/**
 * Correct headers. The signature covers timestamp + body only (not method or path), and the replay guard
 * refuses a non-GET signature seen within 600 s: each body gets a timestamp it never had, stepping back from now.
 */
function sign(body: Buffer | string, method = 'POST'): Record<string, string> {
  let ts = Math.floor(Date.now() / 1000);
  if (method !== 'GET') {
    const hash = createHash('sha256').update(body).digest('hex');
    const seen = signedAt.get(hash) ?? new Set<number>();
    signedAt.set(hash, seen);
    while (seen.has(ts)) ts -= 1;
    seen.add(ts);
  }
  return {
    'X-Service-Key': sys.merchant.apiKey,
    'X-Service-Timestamp': String(ts),
    'X-Service-Signature': signPayload(sys.merchant.apiSecret, String(ts), body),
  };
}
function post(path: string, text: string | Buffer, extra: Record<string, string> = {}): Exchange {
  const body = Buffer.from(text);
  return { method: 'POST', path, body, headers: { ...sign(body), 'Content-Type': 'application/json', ...extra } };
}
function get(path: string): Exchange {
  return { method: 'GET', path, headers: sign('', 'GET') };
}
function getPaths(): string[] {
  return [
    `/api/v1/payments/${real.id}`,
    `/api/v1/refunds/${randomUUID()}`,
    '/api/v1/balances',
    '/api/v1/transactions/export?date_from=2026-01-01&date_to=2026-12-31',
    '/api/v1/webhook-events',
  ];
}
let valid = 0;
/** A body the endpoint would accept (a cash-in, a refund of 1 of the real one, a cash-out that would answer 501). */
function validBody(path: string): Buffer {
  const n = ++valid;
  const body =
    path === REFUNDS
      ? { transaction_id: real.id, amount: 1 }
      : path === CASHOUT
        ? { merchant_order_id: `valid-out-${n}`, amount: 1000, beneficiary_msisdn: '+2250707000001' }
        : { merchant_order_id: `valid-in-${n}`, amount: 1000, customer_msisdn: '+2250707000001' };
  return Buffer.from(JSON.stringify(body));
}

/** What is wrong with an answer to bad input: it must be a documented 4xx, in the documented error shape. */
function problems(a: Answer, codes?: readonly string[]): string[] {
  const found: string[] = [];
  if (a.status < 400 || a.status > 499) found.push(`status ${a.status} is not a 4xx`);
  if (!String(a.headers['content-type']).startsWith('application/json'))
    found.push(`Content-Type ${a.headers['content-type']}`);
  let body: unknown;
  try {
    body = JSON.parse(a.text);
  } catch {
    return [...found, 'the body is not JSON'];
  }
  const error = isObject(body) && Object.keys(body).join() === 'error' ? body.error : null;
  if (!isObject(error)) return [...found, 'the body is not {"error": {...}}'];
  const { code, message, request_id: requestId, details, ...other } = error;
  if (Object.keys(other).length > 0) found.push(`unexpected fields ${Object.keys(other).join()}`);
  if (typeof code !== 'string' || DOCUMENTED_4XX[code] === undefined)
    found.push(`code ${String(code)} is no documented 4xx code`);
  else if (DOCUMENTED_4XX[code] !== a.status)
    found.push(`code ${code} is documented with ${DOCUMENTED_4XX[code]}, answered ${a.status}`);
  if (codes && !codes.includes(String(code))) found.push(`code ${String(code)}, expected ${codes.join(' or ')}`);
  if (typeof message !== 'string' || message === '') found.push('no message');
  if (typeof requestId !== 'string' || requestId !== a.headers['x-request-id'])
    found.push(`request_id ${String(requestId)} is not X-Request-Id ${a.headers['x-request-id']}`);
  const issue = (d: unknown) =>
    isObject(d) &&
    Object.keys(d).sort().join() === 'field,issue' &&
    typeof d.field === 'string' &&
    typeof d.issue === 'string';
  if (details !== undefined && !(Array.isArray(details) && details.every(issue)))
    found.push('details is not a list of {field, issue}');
  return found;
}
async function refused(x: Exchange, codes?: readonly string[]): Promise<void> {
  const a = await send(x);
  failIf(x, a, problems(a, codes));
}
/** Fails with everything needed to send the request again and find its log line (request_id). */
function failIf(x: Exchange, a: Answer, found: string[]): void {
  if (found.length === 0) return;
  const shown = x.body
    ?.subarray(0, 300)
    .toString('latin1')
    .replace(/[^\x20-\x7e]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  const body = x.body ? `${x.body.length} bytes${x.body.length > 300 ? ', the first 300' : ''}: ${shown}` : 'none';
  throw new Error(
    `${found.join('; ')}\n${x.method} ${x.path}\nheaders ${JSON.stringify(x.headers)}\nbody ${body}\n` +
      `answer ${a.status} x-request-id ${a.headers['x-request-id']} ${a.text.slice(0, 400)}`,
  );
}
function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
async function check<T>(arb: fc.Arbitrary<T>, run: (v: T) => Promise<void>, numRuns: number): Promise<void> {
  await fc.assert(fc.asyncProperty(arb, run), { numRuns });
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- The state a request could write --------------------------------------------------------------

type State = Awaited<ReturnType<typeof state>>;
async function state() {
  const db = sys.db;
  const [
    transactions,
    transactionEvents,
    refunds,
    outbox,
    journalEntries,
    webhookEvents,
    webhookAttempts,
    accounts,
    rows,
    balances,
  ] = await Promise.all([
    db.transaction.count(),
    db.transactionEvent.count(),
    db.refund.count(),
    db.outbox.count(),
    db.journalEntry.count(),
    db.webhookEvent.count(),
    db.webhookAttempt.count(),
    db.ledgerAccount.findMany({ orderBy: { id: 'asc' } }),
    db.transaction.findMany({ orderBy: { id: 'asc' } }),
    sys.api('GET', '/api/v1/balances'),
  ]);
  return {
    counts: { transactions, transactionEvents, refunds, outbox, journalEntries, webhookEvents, webhookAttempts },
    ledger: accounts.map((x) => `${x.id} ${x.kind} ${x.countryCode} ${x.merchantId ?? '-'}: ${x.balance}`),
    transactions: rows.map(
      (t) =>
        `${t.id} ${t.status} reserved ${t.refundReservedAmount} refunded ${t.refundedAmount} at ${t.updatedAt.toISOString()}`,
    ),
    balances: balances.body.data as unknown,
  };
}
