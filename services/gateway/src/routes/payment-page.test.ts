import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Db } from '@mm/db';
import { createCashin } from '@mm/db/payments';
import { createRedisConnection, customerCodes, QueueProducer, type CustomerCodeJob } from '@mm/queues';
import { createMerchantTestDatabase, createTestRedis, type MerchantTestDatabase, type TestRedis } from '@mm/testing';
import { redisCodeIntake } from '../payment-page/code-intake.js';
import { paymentPageRouter } from './payment-page.js';

// The payment page's routes against a real database and Redis: what the customer's browser gets, and
// what reaches the customer-codes queue (nothing else may).
let fixture: MerchantTestDatabase;
let db: Db;
let testRedis: TestRedis;
let redis: ReturnType<typeof createRedisConnection>;
let queue: QueueProducer<CustomerCodeJob>;
let server: Server;
let base: string;
let seq = 0;

beforeAll(async () => {
  fixture = await createMerchantTestDatabase();
  db = fixture.db;
  testRedis = await createTestRedis();
  redis = createRedisConnection(testRedis.url);
  queue = new QueueProducer(customerCodes, { connection: redis, redisPrefix: testRedis.prefix });
  const app = express();
  app.use(
    paymentPageRouter({
      db,
      codes: redisCodeIntake({ redis, redisPrefix: testRedis.prefix, queue }),
      publicBaseUrl: 'https://pay.example.test',
    }),
  );
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await queue.close();
  redis.disconnect();
  await testRedis.close();
  await fixture.close();
});

const OTP = { type: 'OTP', ussd: '#144*82#' };
const ORANGE_URL = 'https://webpay.orange.example/mpayment-otp/v1tok';

async function cashin(status: string, customerAction: object | null, operator = 'SIMULATOR') {
  const r = await createCashin(db, {
    merchantId: fixture.merchantId,
    merchantOrderId: `page-${++seq}`,
    amount: 5000,
    currency: 'XOF',
    countryCode: 'CI',
    msisdn: '+2250701000001',
    motif: null,
    returnUrl: 'https://shop.example/back',
    notifyUrl: null,
    metadata: null,
    requestFingerprint: `page-${seq}`,
  });
  if (r.kind !== 'created') throw new Error('not created');
  await db.transaction.update({
    where: { id: r.transaction.id },
    data: { status, operator, ...(customerAction ? { customerAction } : {}) },
  });
  return r.transaction.id;
}

const page = (path: string) => fetch(`${base}${path}`, { headers: { 'Accept-Language': 'fr' } });
const postCode = (
  id: string,
  code: unknown,
  headers: Record<string, string> = { 'Sec-Fetch-Site': 'same-origin', Origin: 'null' },
) =>
  fetch(`${base}/pay/${id}/code`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(code === undefined ? {} : { code: String(code) }).toString(),
  });
const queued = async (id: string) =>
  (await queue.queue.getWaiting()).filter((j) => (j.data as CustomerCodeJob).transaction_id === id);

describe('GET /pay/:id per customer action', () => {
  it('REDIRECT: "Payer avec Orange Money" links to the URL stored on the transaction; /status names the action', async () => {
    const id = await cashin('PENDING', { type: 'REDIRECT', url: ORANGE_URL }, 'ORANGE');
    const res = await page(`/pay/${id}`);
    const html = await res.text();
    expect(html).toContain(`href="${ORANGE_URL}" rel="noreferrer">Payer avec Orange Money</a>`);
    expect(res.headers.get('content-security-policy')).toContain("form-action 'none'");
    expect(await (await page(`/pay/${id}/status`)).json()).toEqual({ status: 'PENDING', action: 'REDIRECT' });
  });

  it("back from the operator with ?orange=cancel or ?wave=error: the state shown is the transaction's, never the query's", async () => {
    const id = await cashin('PENDING', { type: 'REDIRECT', url: ORANGE_URL }, 'ORANGE');
    for (const q of ['?orange=cancel', '?wave=error', '?status=SUCCESS']) {
      const html = await (await page(`/pay/${id}${q}`)).text();
      expect(html).toContain('data-status="PENDING"');
      expect(html).toContain('En attente de votre confirmation');
    }
    await db.transaction.update({ where: { id }, data: { status: 'SUCCESS' } });
    const done = await (await page(`/pay/${id}?orange=cancel`)).text();
    expect(done).toContain('data-status="SUCCESS"');
    expect(done).not.toContain('pay-op');
  });

  it('never links to a stored URL that is not http(s), nor before the operator acknowledged', async () => {
    const bad = await cashin('PENDING', { type: 'REDIRECT', url: 'javascript:alert(1)' }, 'ORANGE');
    const html = await (await page(`/pay/${bad}`)).text();
    expect(html).not.toContain('pay-op');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('Composez votre code secret');
    expect(await (await page(`/pay/${bad}/status`)).json()).toEqual({ status: 'PENDING' });
    const early = await (await page(`/pay/${await cashin('INITIATED', null, 'ORANGE')}`)).text();
    expect(early).toContain('data-status="INITIATED"');
    expect(early).toContain('Envoi de la demande…');
    expect(early).not.toContain('pay-op');
  });

  it('OTP: the code form, a CSP letting it post to its own origin only, and the notice the code route asked for (whitelisted)', async () => {
    const id = await cashin('PENDING', OTP);
    const res = await page(`/pay/${id}?code=sent`);
    const html = await res.text();
    expect(html).toContain(`<form id="code-form" method="post" action="/pay/${id}/code">`);
    expect(html).toContain('#144*82#');
    expect(html).toContain('Code envoyé.');
    expect(res.headers.get('content-security-policy')).toContain("form-action 'self'");
    expect(await (await page(`/pay/${id}?code=%3Cscript%3E`)).text()).not.toContain('id="code-notice"');
  });
});

describe('POST /pay/:id/code', () => {
  it('queues a code posted by the page itself for the bridge (Redis only, removed once done or failed) and sends the customer back (303)', async () => {
    const id = await cashin('PENDING', OTP);
    const res = await postCode(id, '482913');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/pay/${id}?code=sent`);
    const jobs = await queued(id);
    expect(jobs.map((j) => j.data)).toEqual([{ transaction_id: id, code: '482913' }]);
    expect(jobs[0]!.opts).toMatchObject({ removeOnComplete: true, removeOnFail: true });
    // Nowhere in PostgreSQL: not in the outbox (only the cash-in's own push row is there).
    expect(
      (await db.outbox.findMany({ where: { payload: { path: ['transaction_id'], equals: id } } })).map((r) => r.topic),
    ).toEqual(['operator-requests']);
    expect(JSON.stringify(await db.outbox.findMany())).not.toContain('482913');
  });

  it("takes a post without Sec-Fetch-Site when its Origin is the page's (its host or PUBLIC_BASE_URL)", async () => {
    const id = await cashin('PENDING', OTP);
    expect((await postCode(id, '1234', { Origin: base })).status).toBe(303);
    expect((await postCode(id, '1235', { Origin: 'https://pay.example.test' })).status).toBe(303);
    expect(await queued(id)).toHaveLength(2);
  });

  it.each([
    ['another site (Sec-Fetch-Site cross-site)', { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' }],
    ['a sibling site (same-site)', { 'Sec-Fetch-Site': 'same-site', Origin: 'https://evil.pay.example.test' }],
    ['a foreign Origin without Sec-Fetch-Site', { Origin: 'https://evil.example' }],
    ['Origin null without Sec-Fetch-Site', { Origin: 'null' }],
    ['neither header', {}],
  ])('refuses a post from %s: 403, nothing queued, no attempt used', async (_what, headers) => {
    const id = await cashin('PENDING', OTP);
    const res = await postCode(id, '482913', headers as Record<string, string>);
    expect(res.status).toBe(403);
    expect(await queued(id)).toEqual([]);
    expect(await redis.get(`${testRedis.prefix}:pay-code-attempts:${id}`)).toBeNull();
  });

  it.each([
    ['decided', 'SUCCESS', OTP],
    ['not acknowledged yet', 'INITIATED', null],
    ['a redirect payment', 'PENDING', { type: 'REDIRECT', url: ORANGE_URL }],
    ['a USSD push', 'PENDING', null],
  ])('a cash-in %s takes no code: back to the page saying so, nothing queued', async (_what, status, action) => {
    const id = await cashin(status, action);
    const res = await postCode(id, '482913');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/pay/${id}?code=closed`);
    expect(await queued(id)).toEqual([]);
  });

  it('answers a form with more fields than it reads with a 4xx, never a 500, queueing nothing', async () => {
    const id = await cashin('PENDING', OTP);
    const res = await fetch(`${base}/pay/${id}/code`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin' },
      body: 'code=482913&a=1&b=2&c=3&d=4&e=5&f=6',
    });
    expect(res.status).toBe(413);
    expect(await queued(id)).toEqual([]);
  });

  it('refuses a malformed code (not 4 to 8 digits) without queueing it', async () => {
    const id = await cashin('PENDING', OTP);
    for (const code of ['12a4', '123', '123456789', undefined]) {
      expect((await postCode(id, code)).headers.get('location')).toBe(`/pay/${id}?code=invalid`);
    }
    expect(await queued(id)).toEqual([]);
  });

  it('takes at most 5 attempts per cash-in, then says so and queues nothing more', async () => {
    const id = await cashin('PENDING', OTP);
    for (let i = 0; i < 5; i++)
      expect((await postCode(id, `12345${i}`)).headers.get('location')).toBe(`/pay/${id}?code=sent`);
    const sixth = await postCode(id, '999999');
    expect(sixth.headers.get('location')).toBe(`/pay/${id}?code=attempts`);
    expect((await queued(id)).map((j) => (j.data as CustomerCodeJob).code)).toEqual([
      '123450',
      '123451',
      '123452',
      '123453',
      '123454',
    ]);
    // Another cash-in's count is its own.
    const other = await cashin('PENDING', OTP);
    expect((await postCode(other, '1234')).headers.get('location')).toBe(`/pay/${other}?code=sent`);
  });

  it('answers 404 for an unknown or malformed id, queueing nothing', async () => {
    const before = await queue.queue.getWaitingCount();
    expect((await postCode('00000000-0000-4000-8000-000000000000', '1234')).status).toBe(404);
    expect((await postCode('nope', '1234')).status).toBe(404);
    expect(await queue.queue.getWaitingCount()).toBe(before);
  });
});
