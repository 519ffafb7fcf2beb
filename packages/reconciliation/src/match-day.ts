import { matchRecords } from '@mm/domain';
import type { Db, Tx } from '@mm/db';
import { operatorRecordsFor, ourMovementsFor, type AccountKey, type DayPair } from '@mm/db/reconciliation';

/**
 * One account's day as stored: our movements of the day and the operator's records of the day, each side
 * widened to what the other names from another day (a movement booked by the operator after midnight, a
 * record that arrived days late), paired by matchRecords.
 */
export async function matchDay(db: Db | Tx, account: AccountKey, date: string): Promise<DayPair[]> {
  const ofDay = await ourMovementsFor(db, account, date);
  const theirs = await operatorRecordsFor(
    db,
    account,
    date,
    ofDay.map((o) => o.reference),
    ofDay.flatMap((o) => (o.operatorTxId ? [o.operatorTxId] : [])),
  );
  const ours = await ourMovementsFor(
    db,
    account,
    date,
    theirs.flatMap((t) => (t.reference ? [t.reference] : [])),
    theirs.flatMap((t) => (t.operatorTxId ? [t.operatorTxId] : [])),
  );
  return matchRecords(ours, theirs) as DayPair[];
}
