/**
 * What a payment through a link costs the database over an ordinary cash-in (docs/payment-links.md):
 * createCashin itself, 8 at a time for BENCH_LINK_SECONDS each, on a database of its own: without a
 * link (one autocommit statement); through a different capped link each time (BEGIN, the link's row
 * locked, its payments counted, the insert, COMMIT); everyone through one capped link (the lock makes
 * its payments start one after the other, each counting all of them); everyone through one uncapped
 * link (read, not locked, nothing counted). The ratio is to the ordinary cash-in of the same run.
 */
import { randomUUID } from 'node:crypto';
import { createDb, type Db } from '@mm/db';
import { createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '@mm/db/merchants';
import { insertPaymentLink } from '@mm/db/payment-links';
import { createCashin, type NewCashin } from '@mm/db/payments';
import { createTestDatabase } from '@mm/testing';
import { cashinInput } from '@mm/testing/test-database';
import { percentile } from './support/percentile.js';
import { fmt, pct, type Row } from './support/report.js';

const SECONDS = Number(process.env.BENCH_LINK_SECONDS ?? 10);
const CONCURRENCY = 8;

async function newLink(db: Db, merchantId: string, maxPayments: number | null = null): Promise<string> {
  const link = await insertPaymentLink(
    db,
    {
      merchantId,
      description: 'Bench',
      countryCode: 'CI',
      currency: 'XOF',
      amount: { kind: 'fixed', amount: 1000 },
      reusable: true,
      maxPayments,
      expiresAt: null,
      redirectUrl: null,
      metadata: null,
    },
    new Date(),
  );
  return link.id;
}

/** `CONCURRENCY` loops creating cash-ins for SECONDS; their rate and latencies. */
async function load(db: Db, input: () => Promise<NewCashin>): Promise<{ rps: number; ms: number[] }> {
  const ms: number[] = [];
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        const next = await input();
        const started = performance.now();
        const r = await createCashin(db, next);
        if (r.kind !== 'created') throw new Error('bench cash-in not created');
        ms.push(performance.now() - started);
      }
    }),
  );
  // Loops at once over their mean latency: the time spent making each loop's next link is left out.
  return { rps: (CONCURRENCY * 1000 * ms.length) / ms.reduce((a, b) => a + b, 0), ms };
}

export async function linkBench(): Promise<Row[]> {
  const database = await createTestDatabase();
  const db = createDb({ databaseUrl: database.url, poolSize: CONCURRENCY });
  try {
    for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(db, s);
    const merchantId = (await createMerchant(db, { name: 'Link shop', webhookUrl: null })).id;
    const base = (): NewCashin => cashinInput(merchantId, randomUUID());
    const shared = await newLink(db, merchantId);
    const plain = await load(db, async () => base());
    const capped = await newLink(db, merchantId, 1_000_000_000);
    const ownLink = await load(db, async () => ({
      ...base(),
      paymentLinkId: await newLink(db, merchantId, 1_000_000_000),
    }));
    const oneLink = await load(db, async () => ({ ...base(), paymentLinkId: capped }));
    const oneUncapped = await load(db, async () => ({ ...base(), paymentLinkId: shared, paymentLinkCapped: false }));
    const row = (what: string, r: { rps: number; ms: number[] }, notes: string): Row => ({
      what: `createCashin ${what}`,
      rate: `${fmt(r.rps)}/s`,
      latency: `p50 ${percentile(r.ms, 50).toFixed(2)} ms, p95 ${percentile(r.ms, 95).toFixed(2)} ms`,
      ratio: `${pct(r.rps, plain.rps)} of the plain cash-in`,
      target: '—',
      notes,
    });
    return [
      row('without a link', plain, `one autocommit statement; ${CONCURRENCY} at a time, ${SECONDS} s`),
      row('through a capped link each', ownLink, 'BEGIN, lock the link, count its payments, insert, COMMIT'),
      row('all through one capped link', oneLink, 'its row lock: one after the other, each counting all its payments'),
      row('all through one uncapped link', oneUncapped, 'its row read, not locked, nothing counted: side by side'),
    ];
  } finally {
    await db.$disconnect();
    await database.drop();
  }
}
