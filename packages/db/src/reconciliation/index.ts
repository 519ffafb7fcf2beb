export { saveOperatorRecords, forgetStatusRecord, operatorRecordsFor, type AccountKey, type DatedOperatorRecord, type RecordSource } from './operator-records.js';
export { ourMovementsFor, type OurMovement } from './our-records.js';
export { recordDay, recordPairCase, reconciliationSlot, type DayPair, type DaySummary } from './record-day.js';
export { recordReportedDifference } from './reported-difference.js';
export { CaseChangedError, resolveCase, type CaseVerdict, type ResolvedCase } from './resolve-case.js';
export {
  listReconciliationRuns, listReconciliationCases, findReconciliationCase,
  type RunCursor, type RunQuery, type RunSummary, type CaseCursor, type CaseQuery, type CaseSummary, type CaseDetail,
} from './case-queries.js';
export { dayReport, openCaseTotals, type DayReport, type DayReportAccount, type DayReportCase, type DayReportFilter, type OpenCaseTotals } from './day-report.js';
