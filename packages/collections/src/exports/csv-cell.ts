/**
 * One CSV cell (RFC 4180) of the transaction export, safe to open in a spreadsheet.
 *
 * - A text that starts with = + - @ (or a tab or carriage return, per OWASP's CSV-injection advice)
 *   would be read as a formula by Excel, LibreOffice or Google Sheets: it is prefixed with a single
 *   quote, which spreadsheets show as text and never evaluate.
 * - A cell holding a comma, a double quote, CR or LF is wrapped in double quotes, its quotes doubled.
 * - null and undefined are empty cells; numbers are written as they are.
 */
const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r']);
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string | number | bigint | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.has(value.charAt(0)) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record: cells joined by commas, ended by CRLF (RFC 4180). */
export function csvLine(values: readonly (string | number | bigint | boolean | null | undefined)[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
