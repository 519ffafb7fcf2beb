export {
  type CaseCursor,
  type CaseDetail,
  type CaseQuery,
  type CaseSummary,
  findReconciliationCase,
  listReconciliationCases,
  listReconciliationRuns,
  type RunCursor,
  type RunQuery,
  type RunSummary,
} from './case-queries.js';
export { dayReport, type DayReport, type DayReportAccount, openCaseTotals, type OpenCaseTotals } from './day-report.js';
export {
  type AccountKey,
  type DatedOperatorRecord,
  forgetStatusRecord,
  operatorRecordsFor,
  type RecordSource,
  saveOperatorRecords,
} from './operator-records.js';
export { type OurMovement, ourMovementsFor } from './our-records.js';
export { type DayPair, type DaySummary, reconciliationSlot, recordDay, recordPairCase } from './record-day.js';
export { CaseChangedError, type CaseVerdict, resolveCase } from './resolve-case.js';
