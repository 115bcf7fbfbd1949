import { startsLikeFormula } from '@tuitiondesk/contract';

/** A cell value as a caller has it; null and undefined become empty cells. */
export type CsvCell = string | number | boolean | null | undefined;

/** Byte order mark: without it Excel reads UTF-8 as the system code page and mangles non-ASCII names. */
export const CSV_BOM = '\uFEFF';
export const CSV_LINE_END = '\r\n';

/**
 * Text a spreadsheet shows as text: a cell that would start a formula (the contract's one rule, the
 * server's exports use it too) gets a leading single quote, as OWASP advises. Numbers pass
 * unchanged, so a negative figure stays a figure.
 */
export function neutraliseCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  return startsLikeFormula(value) ? `'${value}` : value;
}

/**
 * One field, RFC 4180: always inside double quotes, inner quotes doubled. Quoting every field also
 * keeps a separator or line break inside user text from starting a new cell (OWASP's second rule),
 * whatever separator the reader's locale uses.
 */
export function quoteCell(value: CsvCell): string {
  return `"${neutraliseCell(value).replaceAll('"', '""')}"`;
}

/** A whole CSV file: BOM, header line, one line per row, each line ended by CRLF. */
export function buildCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  const lines = [header, ...rows].map((cells) => cells.map(quoteCell).join(','));
  return CSV_BOM + lines.map((line) => line + CSV_LINE_END).join('');
}

/** The file a browser saves: text/csv in UTF-8. */
export function csvBlob(csv: string): Blob {
  return new Blob([csv], { type: 'text/csv;charset=utf-8' });
}
