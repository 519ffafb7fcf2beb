import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createAccountAdapter, type OperatorAdapter, type PaymentLookup, type UssdPushRequest } from '@mm/operators';
import { startReceiver, waitFor, type Receiver } from '@mm/testing';
import { DEMO_WAVE } from './demo-credentials.js';
import { startOperatorMocks, type OperatorMocksOptions, type RunningOperatorMocks } from './operator-mocks.js';
import { statementOf, today } from '@mm/fake-operator/statement-client';

/**
 * The contract mocks with OPERATOR_RECORDS_DIR: what each operator did before a restart is still in its books
 * after it (its statement, its record of each payment, its status answers), as with the real operator.
 */
describe("the contract mocks' records across a restart", () => {
  let dir: string;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'mm-mock-records-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const start = (ports: OperatorMocksOptions['ports'], recordsDir: string | null) =>
    startOperatorMocks({
      ports,
      waveWebhookUrl: null,
      outcomeDelayMs: 30,
      lateConfirmDelayMs: 60_000,
      waveAutoPay: true,
      providerCallbackHost: '127.0.0.1',
      recordsDir,
    });
  const portsOf = (m: RunningOperatorMocks): OperatorMocksOptions['ports'] => {
    const port = (u: string) => Number(new URL(u).port);
    return {
      mtnCi: port(m.urls.mtnCi),
      mtnCm: port(m.urls.mtnCm),
      orangeWebpay: port(m.urls.orangeWebpay),
      orangeMp: port(m.urls.orangeMp),
      wave: port(m.urls.wave),
    };
  };
  const adapterOf = (m: RunningOperatorMocks, country: string, operator: string): OperatorAdapter => {
    const a = m.accounts().find((x) => x.countryCode === country && x.operator === operator)!;
    return createAccountAdapter(a.api, {
      baseUrl: a.baseUrl,
      credentials: a.credentials,
      settings: a.settings,
      timeoutMs: 2_000,
    });
  };
  const request = (msisdn: string, amount: number, currency: string, countryCode: string): UssdPushRequest => {
    const partnerReference = `tx_${randomUUID().replace(/-/g, '')}`;
    return {
      partnerReference,
      msisdn,
      amount,
      currency,
      countryCode,
      motif: 'Order 42',
      callbackUrl: `${receiver.url}/${partnerReference}`,
      returnUrl: `http://shop.test/pay/${partnerReference}`,
    };
  };
  const paid = (adapter: OperatorAdapter, lookup: PaymentLookup) =>
    waitFor(
      async () => {
        const s = await adapter.queryStatus(lookup).catch(() => null);
        return s?.providerState === 'OK' ? s : undefined;
      },
      { what: `${lookup.partnerReference} paid` },
    );

  /** One paid cash-in through each mock, as the bridge makes them; what each status query said. */
  async function aDay(m: RunningOperatorMocks) {
    const mtn = adapterOf(m, 'CI', 'MTN');
    const mtnReq = request('+2250512345601', 5000, 'XOF', 'CI');
    await mtn.pushUssd(mtnReq);
    const mp = adapterOf(m, 'CM', 'ORANGE');
    const mpReq0 = request('+237691234501', 4000, 'XAF', 'CM');
    const mpReq = { ...mpReq0, providerSessionId: (await mp.prepare!(mpReq0)).providerSessionId };
    await mp.pushUssd(mpReq);
    const webpay = adapterOf(m, 'CI', 'ORANGE');
    const webpayReq0 = request('+2250712345601', 3000, 'XOF', 'CI');
    const webpayAck = await webpay.pushUssd(webpayReq0);
    const webpayReq = { ...webpayReq0, providerSessionId: webpayAck.accepted ? webpayAck.providerSessionId : null };
    m.controls.orangeWebpay.pay(webpayReq.providerSessionId!, '0712345601');
    const wave = adapterOf(m, 'CI', 'WAVE');
    const waveReq0 = request('+2250512345601', 2000, 'XOF', 'CI');
    const waveAck = await wave.pushUssd(waveReq0);
    const waveReq = { ...waveReq0, providerSessionId: waveAck.accepted ? waveAck.providerSessionId : null };
    const payments = [
      [mtn, mtnReq],
      [mp, mpReq],
      [webpay, webpayReq],
      [wave, waveReq],
    ] as const;
    const statuses = [];
    for (const [adapter, req] of payments) statuses.push(await paid(adapter, req));
    return { payments, statuses, waveReq };
  }
  const books = async (m: RunningOperatorMocks) =>
    Promise.all(
      Object.values(m.urls).map(async (url) => ({
        statement: (await statementOf(`${url}/_mock`)).rows,
        records: (await (await fetch(`${url}/_mock/records`)).json()) as unknown,
      })),
    );
  const waveBalance = async (m: RunningOperatorMocks) =>
    (await fetch(`${m.urls.wave}/v1/balance`, { headers: { Authorization: `Bearer ${DEMO_WAVE.apiKey}` } })).json();

  it("started again on the same directory, each mock still has the day: statements, records, status answers, Wave's list and balance", async () => {
    const first = await start({ mtnCi: 0, mtnCm: 0, orangeWebpay: 0, orangeMp: 0, wave: 0 }, dir);
    const day = await aDay(first);
    const before = await books(first);
    const listed = await adapterOf(first, 'CI', 'WAVE').listRecords!(today(), null);
    const balance = await waveBalance(first);
    expect(before.flatMap((b) => b.statement).filter((r) => r.status === 'SUCCESS')).toHaveLength(4);
    await first.close();

    const again = await start(portsOf(first), dir);
    try {
      // Kept-alive connections to the first run (this test's, the adapters') fail once each, as with a real restart.
      expect(await waitFor(() => books(again).catch(() => undefined), { what: 'the restarted mocks' })).toEqual(before);
      for (const [i, [adapter, req]] of day.payments.entries()) {
        await expect(
          waitFor(() => adapter.queryStatus(req).catch(() => undefined), { what: 'a status answer' }),
        ).resolves.toEqual(day.statuses[i]);
      }
      await expect(adapterOf(again, 'CI', 'WAVE').listRecords!(today(), null)).resolves.toEqual(listed);
      await expect(waveBalance(again)).resolves.toEqual(balance);
    } finally {
      await again.close();
    }
  });

  it('without a directory a restart forgets them, as before', async () => {
    const first = await start({ mtnCi: 0, mtnCm: 0, orangeWebpay: 0, orangeMp: 0, wave: 0 }, null);
    await aDay(first);
    await first.close();
    const again = await start(portsOf(first), null);
    try {
      expect(
        (await waitFor(() => books(again).catch(() => undefined), { what: 'the restarted mocks' })).flatMap(
          (b) => b.statement,
        ),
      ).toEqual([]);
    } finally {
      await again.close();
    }
  });
});
