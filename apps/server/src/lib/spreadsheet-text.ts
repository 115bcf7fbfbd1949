/**
 * CSV text as every server export writes it. Which text a spreadsheet would run is the contract's one
 * rule (`startsLikeFormula`, shared with the console's exports); a CSV writes such text behind a
 * single quote, an .xlsx as a string cell (never a formula).
 */
import { startsLikeFormula } from '@tuitiondesk/contract';

/** The text as a CSV cell holds it so that a spreadsheet shows it as text: a leading quote when needed. */
export function csvSafeText(text: string): string {
  return startsLikeFormula(text) ? `'${text}` : text;
}

/** One RFC 4180 field, always quoted (a separator or line break in the text stays inside the cell). */
export function quoteCsvField(field: string): string {
  return `"${field.replaceAll('"', '""')}"`;
}

export const CSV_BOM = '\uFEFF';
export const CSV_LINE_END = '\r\n';
