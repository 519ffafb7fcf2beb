import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createDb, type Db } from '@mm/db';
import { createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '@mm/db/merchants';
import { createCashin, createRefund, completeRefund, transition } from '@mm/db/payments';
import { createTestDatabase, type TestDatabase } from '@mm/testing';
import { CommandFailure, runCommand } from './run-command.js';
import { parseEnv } from './env.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const run = promisify(execFile);

describe('pnpm admin ledger:verify', () => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb({ databaseUrl: database.url, poolSize: 2 });
    for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(db, s);
    const { id: merchantId } = await createMerchant(db, { name: 'M', webhookUrl: null });
    // Activity of every kind: captured, failed, in flight, refunded in part.
    for (const [i, to] of (['SUCCESS', 'FAILED', 'PENDING', 'SUCCESS'] as const).entries()) {
      const c = await createCashin(db, {
        merchantId,
        merchantOrderId: `o${i}`,
        amount: 1000 * (i + 1),
        currency: 'XOF',
        countryCode: 'CI',
        msisdn: '+2250707000001',
        motif: null,
        returnUrl: null,
        notifyUrl: null,
        metadata: null,
        requestFingerprint: `f${i}`,
      });
      if (c.kind !== 'created') throw new Error('not created');
      await db.$transaction(async (tx) => {
        await transition(tx, { transactionId: c.transaction.id, to: 'INITIATED', cause: 'test' });
        await transition(tx, { transactionId: c.transaction.id, to: 'PENDING', cause: 'test' });
        if (to !== 'PENDING') await transition(tx, { transactionId: c.transaction.id, to, cause: 'test' });
      });
      if (i === 3) {
        const r = await createRefund(db, {
          merchantId,
          transactionId: c.transaction.id,
          amount: 1500,
          reason: null,
          idempotencyKey: null,
          requestFingerprint: 'r',
        });
        await db.$transaction((tx) => completeRefund(tx, r.refund.id, { status: 'SUCCESS', providerRefundId: 'RF1' }));
        await createRefund(db, {
          merchantId,
          transactionId: c.transaction.id,
          amount: 500,
          reason: null,
          idempotencyKey: null,
          requestFingerprint: 'r2',
        });
      }
    }
  });
  afterAll(async () => {
    await db.$disconnect();
    await database.drop();
  });

  const env = () => parseEnv({ DATABASE_URL: database.url });

  it('proves a consistent ledger: every journal balanced, balances equal to the journal and to the records', async () => {
    const out = await runCommand(['ledger:verify', '--json'], env());
    const report = JSON.parse(out);
    expect(report).toMatchObject({ ok: true, problems: [] });
    expect(report.journals).toBeGreaterThanOrEqual(8);
  });

  it('finds a balance that no longer matches its journal, and the CLI process exits 1', async () => {
    await db.$executeRaw`UPDATE ledger_accounts SET balance = balance + 7 WHERE kind = 'MERCHANT_AVAILABLE'`;
    try {
      await expect(runCommand(['ledger:verify'], env())).rejects.toThrow(CommandFailure);
      await expect(runCommand(['ledger:verify'], env())).rejects.toThrow(
        /account balance differs from its journal entries/,
      );
      const child = run('node', ['--import', 'tsx', 'services/admin-cli/src/main.ts', 'ledger:verify'], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: database.url },
      });
      await expect(child).rejects.toMatchObject({ code: 1, stdout: expect.stringMatching(/DIFFERENCES FOUND/) });
    } finally {
      await db.$executeRaw`UPDATE ledger_accounts SET balance = balance - 7 WHERE kind = 'MERCHANT_AVAILABLE'`;
    }
  });

  it('finds a journal that does not sum to zero (written with the guard trigger switched off)', async () => {
    const [entry] = await db.$queryRaw<{ account_id: bigint }[]>`SELECT account_id FROM journal_entries LIMIT 1`;
    // The balance trigger too: an event it queued would forbid switching the guard back on in this transaction.
    await db.$transaction(async (tx) => {
      await tx.$executeRaw`ALTER TABLE journal_entries DISABLE TRIGGER journal_entries_balanced, DISABLE TRIGGER journal_entries_book`;
      await tx.$executeRaw`INSERT INTO journal_entries (journal_id, account_id, amount, posting) VALUES (gen_random_uuid(), ${entry!.account_id}, 5, 'FORGED')`;
      await tx.$executeRaw`ALTER TABLE journal_entries ENABLE TRIGGER journal_entries_balanced, ENABLE TRIGGER journal_entries_book`;
    });
    await expect(runCommand(['ledger:verify'], env())).rejects.toThrow(/journal does not sum to zero/);
  });
});
