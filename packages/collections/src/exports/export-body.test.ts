import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import type { ExportedTransaction } from '@mm/db/payments';
import { csvLayout, ExportBody, jsonLayout } from './export-body.js';
import { EXPORT_COLUMNS } from './export-row.js';

const tx = (i: number, extra: Partial<ExportedTransaction> = {}): ExportedTransaction => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  merchantOrderId: `order-${i}`,
  type: 'CASHIN',
  status: 'SUCCESS',
  amount: 1000n + BigInt(i),
  currency: 'XOF',
  countryCode: 'CI',
  msisdn: '+2250707000001',
  providerReference: `REF-${i}`,
  providerTxId: `OP-${i}`,
  providerSessionId: null,
  providerState: 'OK',
  providerTxnStatus: '200',
  failureCode: null,
  failureReason: null,
  refundedAmount: 0n,
  completedAt: new Date('2026-01-01T00:00:01.000Z'),
  createdAt: new Date('2026-01-01T00:00:00.000Z'),
  updatedAt: new Date('2026-01-01T00:00:01.000Z'),
  operator: 'SIMULATOR',
  paymentLinkId: null,
  ...extra,
});

const render = (rows: ExportedTransaction[], body: ExportBody) => text(Readable.from(rows).pipe(body));

describe('ExportBody', () => {
  it('writes a JSON document with data then meta, count included', async () => {
    const doc = JSON.parse(
      await render(
        [tx(1), tx(2)],
        new ExportBody(jsonLayout({ date_from: '2026-01-01', date_to: '2026-01-02', country_code: 'CI' })),
      ),
    );
    expect(doc.data.map((r: { merchant_order_id: string }) => r.merchant_order_id)).toEqual(['order-1', 'order-2']);
    expect(doc.meta).toEqual({ count: 2, date_from: '2026-01-01', date_to: '2026-01-02', country_code: 'CI' });
    expect(Object.keys(doc)).toEqual(['data', 'meta']);
  });

  it('writes an empty export as a complete document', async () => {
    expect(await render([], new ExportBody(jsonLayout({ date_from: '2026-01-01', date_to: '2026-01-01' })))).toBe(
      '{"data":[],"meta":{"count":0,"date_from":"2026-01-01","date_to":"2026-01-01"}}',
    );
    expect(await render([], new ExportBody(csvLayout()))).toBe(`${EXPORT_COLUMNS.join(',')}\r\n`);
  });

  it('writes CSV: the header, then one CRLF line per row; columns added later (operator, then payment_link_id) come last, after the original ones', async () => {
    const out = await render(
      [
        tx(1, { merchantOrderId: '=1+1' }),
        tx(2, { merchantOrderId: 'a,"b"', paymentLinkId: '0b8f3c9e-5a3e-4d0b-9a51-6c1f7a2b9e10' }),
      ],
      new ExportBody(csvLayout()),
    );
    const lines = out.split('\r\n');
    expect(lines[0]).toBe(
      'transaction_id,merchant_order_id,type,status,amount,currency,country_code,payment_method,provider_reference,provider_tx_id,provider_session_id,provider_state,provider_txn_status,failure_code,failure_reason,refunded_amount,completed_at,msisdn,created_at,updated_at,operator,payment_link_id',
    );
    // The masked E.164 number starts with + too: it is prefixed like any other such cell.
    expect(lines[1]).toBe(
      `00000000-0000-4000-8000-000000000001,'=1+1,CASHIN,SUCCESS,1001,XOF,CI,USSD_PUSH,REF-1,OP-1,,OK,200,,,0,2026-01-01T00:00:01.000Z,'+22507******01,2026-01-01T00:00:00.000Z,2026-01-01T00:00:01.000Z,SIMULATOR,`,
    );
    expect(lines[2]).toContain(',"a,""b""",');
    expect(lines[2]).toMatch(/,SIMULATOR,0b8f3c9e-5a3e-4d0b-9a51-6c1f7a2b9e10$/);
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe('');
  });

  it('sends rows that arrive together as a few large chunks, not one write per row', async () => {
    const body = new ExportBody(csvLayout());
    const chunks: Buffer[] = [];
    Readable.from(Array.from({ length: 5000 }, (_, i) => tx(i))).pipe(body);
    for await (const c of body) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString().split('\r\n')).toHaveLength(5002);
    expect(chunks.length).toBeLessThan(100);
  });

  it('stops taking rows while nobody reads it (backpressure)', () => {
    const body = new ExportBody(jsonLayout({ date_from: '2026-01-01', date_to: '2026-01-01' }));
    let accepted = 0;
    while (body.write(tx(accepted)) && accepted < 100_000) accepted += 1;
    // ~64 KiB of text at ~500 bytes a row, plus the writable side's 16 objects.
    expect(accepted).toBeLessThan(400);
    body.destroy();
  });
});
