export { saveOperatorRecords, forgetStatusRecord, operatorRecordsFor, type AccountKey, type DatedOperatorRecord, type RecordSource } from './operator-records.js';
export { ourMovementsFor, type OurMovement } from './our-records.js';
export { recordDay, reconciliationSlot, type DayPair, type DaySummary } from './record-day.js';
export { resolveCase, type CaseVerdict, type ResolvedCase } from './resolve-case.js';
export { dayReport, openCaseTotals, type DayReport, type DayReportAccount, type DayReportCase, type DayReportFilter, type OpenCaseTotals } from './day-report.js';
