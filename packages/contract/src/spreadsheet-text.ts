/**
 * Text that a spreadsheet must never run (OWASP "CSV Injection"): a cell starting with = + - @, a tab
 * or a carriage return, or the full-width ＝ ＋ － ＠ (which some spreadsheets read as their ASCII
 * twins), is a formula to Excel, LibreOffice and Google Sheets. One rule for every export, the
 * console's and the server's: a CSV writes such text behind a single quote, an .xlsx as a string cell.
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** Whether a spreadsheet would read this text as the start of a formula. */
export function startsLikeFormula(text: string): boolean {
  return FORMULA_START.test(text);
}
