import { cashinPosting, refundPosting } from '@mm/domain';
import type { Db } from '../database/index.js';
import { isOverdraft, post } from './ledger.js';
import { createMerchantTestDatabase, type MerchantTestDatabase } from '@mm/testing/test-database';

/**
 * post() writes a journal, opening the accounts it names when they are missing, and the balances move
 * while the transaction commits. These pin what a posting must do: the accounts it opens, the rows it
 * writes, that it keeps no balance row locked before COMMIT, and that a refused posting writes nothing.
 */
describe('ledger posting', () => {
  let fixture: MerchantTestDatabase;
  let db: Db;
  let merchantId: string;
  beforeAll(async () => {
    fixture = await createMerchantTestDatabase(4);
    ({ db, merchantId } = fixture);
  });
  afterAll(async () => {
    await fixture.close();
  });

  const accounts = (countryCode: string) => db.$queryRaw<{ owner: string; kind: string; balance: bigint }[]>`
    SELECT CASE WHEN merchant_id IS NULL THEN 'system' ELSE 'merchant' END AS owner, kind, balance
      FROM ledger_accounts WHERE country_code = ${countryCode} AND (merchant_id IS NULL OR merchant_id = ${merchantId}::uuid) ORDER BY kind`;
  const journalRows = async () =>
    (await db.$queryRaw<{ count: bigint }[]>`SELECT count(*) FROM journal_entries`)[0]?.count;
  const entries = (journalId: string) => db.$queryRaw<{ kind: string; amount: bigint; posting: string }[]>`
    SELECT a.kind, e.amount, e.posting FROM journal_entries e JOIN ledger_accounts a ON a.id = e.account_id
     WHERE e.journal_id = ${journalId}::uuid ORDER BY a.kind`;

  it('opens the merchant and system accounts of a first posting in a country, then moves only the merchant balance', async () => {
    expect(await accounts('SN')).toEqual([]);
    const journal = await db.$transaction((tx) =>
      post(tx, { merchantId, countryCode: 'SN', currency: 'XOF' }, cashinPosting(null, 'CREATED', 2500)!, null),
    );
    expect(await accounts('SN')).toEqual([
      { owner: 'merchant', kind: 'MERCHANT_PENDING', balance: 2500n },
      { owner: 'system', kind: 'OPERATOR_RECEIVABLE', balance: 0n },
    ]);
    expect(await entries(journal)).toEqual([
      { kind: 'MERCHANT_PENDING', amount: 2500n, posting: 'CASHIN_PENDING' },
      { kind: 'OPERATOR_RECEIVABLE', amount: -2500n, posting: 'CASHIN_PENDING' },
    ]);
  });

  it('opens only what is missing: an existing account keeps its balance and gets the new line', async () => {
    const scope = { merchantId, countryCode: 'SN', currency: 'XOF' };
    const journal = await db.$transaction((tx) => post(tx, scope, cashinPosting('PENDING', 'SUCCESS', 1000)!, null));
    expect(await accounts('SN')).toEqual([
      { owner: 'merchant', kind: 'MERCHANT_AVAILABLE', balance: 1000n },
      { owner: 'merchant', kind: 'MERCHANT_PENDING', balance: 1500n },
      { owner: 'system', kind: 'OPERATOR_RECEIVABLE', balance: 0n },
    ]);
    expect(await entries(journal)).toEqual([
      { kind: 'MERCHANT_AVAILABLE', amount: 1000n, posting: 'CASHIN_CAPTURED' },
      { kind: 'MERCHANT_PENDING', amount: -1000n, posting: 'CASHIN_CAPTURED' },
    ]);
  });

  it('locks a balance row only while committing: a posting of the same merchant does not wait for an open transaction that posted', async () => {
    const scope = { merchantId, countryCode: 'SN', currency: 'XOF' };
    const before = await accounts('SN');
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let posted: () => void = () => undefined;
    const hasPosted = new Promise<void>((r) => {
      posted = r;
    });
    const open = db.$transaction(
      async (tx) => {
        await post(tx, scope, cashinPosting(null, 'CREATED', 300)!, null);
        posted();
        await held;
      },
      { timeout: 10_000 },
    );
    await hasPosted;
    // Before balances were booked at commit, this waited for the open transaction's row lock and gave up.
    await db.$transaction(async (tx) => {
      await tx.$executeRaw`SET LOCAL lock_timeout = '300ms'`;
      await post(tx, scope, cashinPosting(null, 'CREATED', 200)!, null);
    });
    const pending = (rows: { kind: string; balance: bigint }[]) =>
      rows.find((a) => a.kind === 'MERCHANT_PENDING')!.balance;
    expect(pending(await accounts('SN')) - pending(before)).toBe(200n);
    release();
    await open;
    expect(pending(await accounts('SN')) - pending(before)).toBe(500n);
  });

  it('refuses an overdraft as one (isOverdraft) and writes nothing', async () => {
    const scope = { merchantId, countryCode: 'SN', currency: 'XOF' };
    const before = await accounts('SN');
    const journalsBefore = await journalRows();
    const err = await db
      .$transaction((tx) => post(tx, scope, refundPosting('ACCEPTED', 1001), null))
      .catch((e: unknown) => e);
    expect(isOverdraft(err)).toBe(true);
    expect(await accounts('SN')).toEqual(before);
    expect(await journalRows()).toBe(journalsBefore);
  });
});
