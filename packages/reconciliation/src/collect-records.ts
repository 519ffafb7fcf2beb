import {
  forgetStatusRecord,
  ourMovementsFor,
  saveOperatorRecords,
  type AccountKey,
  type DatedOperatorRecord,
  type RecordSource,
} from '@mm/db/reconciliation';
import type { Db } from '@mm/db';
import { NoOperatorRecordError, type OperatorAdapter } from '@mm/operators';

/** How many status queries are in flight at once for one account: a day is read without flooding the operator. */
const STATUS_QUERY_CONCURRENCY = 4;

/**
 * Reads what the operator says about one business day and keeps it (operator_records): its list of
 * movements where it has one (Wave, the simulator), else a status query per movement of ours that day
 * (MTN, Orange: such a source cannot show a movement we do not know). An operator with neither is
 * reconciled from the statements imported for it. Returns the source used, if any.
 */
export async function collectOperatorRecords(
  db: Db,
  adapter: Pick<OperatorAdapter, 'listRecords' | 'recordOf'>,
  account: AccountKey,
  date: string,
): Promise<RecordSource | null> {
  if (adapter.listRecords) {
    const records: DatedOperatorRecord[] = [];
    let cursor: string | null = null;
    do {
      const page = await adapter.listRecords(date, cursor);
      // One endpoint may list the movements of several accounts (the simulator serves every country's): this
      // account's are those of its country, and those whose country the operator does not tell.
      records.push(
        ...page.records
          .filter((r) => !r.countryCode || r.countryCode === account.countryCode)
          .map((r) => ({ ...r, businessDate: date })),
      );
      cursor = page.next;
    } while (cursor);
    await saveOperatorRecords(db, account, records, 'API');
    return 'API';
  }
  if (adapter.recordOf) {
    const recordOf = adapter.recordOf.bind(adapter);
    const movements = await ourMovementsFor(db, account, date);
    let next = 0;
    const worker = async () => {
      while (next < movements.length) {
        const m = movements[next++]!;
        let record;
        try {
          record = await recordOf({
            kind: m.kind,
            reference: m.reference,
            payment: m.payment,
            amount: m.amount,
            currency: m.currency,
          });
        } catch (err) {
          // A kind of movement this operator cannot be asked about (Orange has no refund or payout API, so
          // none was ever sent there): what a statement said of it stays, nothing else is known.
          if (err instanceof NoOperatorRecordError) continue;
          throw err;
        }
        if (record) await saveOperatorRecords(db, account, [{ ...record, businessDate: date }], 'STATUS_QUERY');
        else await forgetStatusRecord(db, account, m.kind, m.reference);
      }
    };
    await Promise.all(Array.from({ length: STATUS_QUERY_CONCURRENCY }, worker));
    return 'STATUS_QUERY';
  }
  return null;
}
