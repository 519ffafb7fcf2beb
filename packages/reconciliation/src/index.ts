export { reconcileDay, type ReconcileDeps } from './reconcile-day.js';
export { collectOperatorRecords } from './collect-records.js';
export { matchDay } from './match-day.js';
export { parseStatement, MAX_STATEMENT_LINES, type ParsedStatement, type StatementLineError } from './statement-csv.js';
export { dayReportCsv, DAY_REPORT_CSV_COLUMNS } from './day-report-csv.js';
