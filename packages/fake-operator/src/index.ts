export { fakeOperatorEnv, recordsDirOf } from './env.js';
export { logTo, type Log } from './log.js';
export { IN_MEMORY, openRecordJournal, type RecordJournal } from './record-journal.js';
export { RecordMap } from './record-map.js';
export {
  before,
  cursorFor,
  dayOf,
  isDay,
  linesOfDay,
  pageOf,
  plantedTxId,
  Plants,
  STATEMENT_HEADER,
  statementCsv,
  statementRoutes,
  withChange,
  type PlantedChange,
  type StatementLine,
  type UnknownRecordChange,
} from './statement.js';
export { TimerSet } from './timer-set.js';
