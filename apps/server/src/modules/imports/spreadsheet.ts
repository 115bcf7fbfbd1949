import * as XLSX from '@e965/xlsx';
import { BadRequestError, PayloadTooLargeError } from '../../lib/errors';

/**
 * Uploaded workbooks are untrusted. In order: the name, the size, the magic bytes, a walk of a
 * zip's central directory (no zip bomb reaches the reader), then the reader itself limited to
 * the allowed rows plus the header, so a sheet that claims a million rows costs nothing.
 */

export const EXCEL_EXTENSIONS = ['.xlsx', '.xls'] as const;
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE2_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const MAX_ZIP_ENTRIES = 2000;
const MAX_UNCOMPRESSED_BYTES = 100 * 1024 * 1024;

export interface SheetRow {
  /** The row's number in the spreadsheet (the header is row 1). */
  row: number;
  cells: string[];
}

export interface Sheet {
  headers: string[];
  rows: SheetRow[];
}

export interface ReadLimits {
  maxBytes: number;
  maxRows: number;
}

export function assertExcelName(filename: string | undefined): void {
  const name = (filename ?? '').toLowerCase();
  if (!EXCEL_EXTENSIONS.some((extension) => name.endsWith(extension))) {
    throw new BadRequestError('Please upload only Excel files (.xlsx or .xls)');
  }
}

function megabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

export function fileTooLarge(maxBytes: number): PayloadTooLargeError {
  return new PayloadTooLargeError(
    `The file is larger than ${megabytes(maxBytes)}; split it into smaller files and import them one by one`,
  );
}

const NOT_EXCEL =
  'The file is not an Excel workbook (.xlsx or .xls): it may be damaged, or another kind of file saved with an Excel name';

/** Refuses a zip whose central directory declares too many entries or too many bytes unpacked. */
export function assertSafeZip(buffer: Buffer): void {
  // The end-of-central-directory record is in the last 22 + 65535 bytes.
  const from = Math.max(0, buffer.length - 22 - 0xffff);
  let end = -1;
  for (let i = buffer.length - 22; i >= from; i -= 1) {
    if (buffer.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new BadRequestError(`${NOT_EXCEL} (the zip directory is missing)`);
  const entries = buffer.readUInt16LE(end + 10);
  const directorySize = buffer.readUInt32LE(end + 12);
  const directoryOffset = buffer.readUInt32LE(end + 16);
  if (entries === 0xffff || directoryOffset === 0xffffffff) {
    throw new BadRequestError(`${NOT_EXCEL} (zip64 archives are not accepted)`);
  }
  if (entries > MAX_ZIP_ENTRIES) throw new BadRequestError(`${NOT_EXCEL} (it holds ${entries} parts)`);
  if (directoryOffset + directorySize > end) throw new BadRequestError(`${NOT_EXCEL} (the zip directory is damaged)`);
  let offset = directoryOffset;
  let total = 0;
  for (let n = 0; n < entries; n += 1) {
    if (offset + 46 > end || buffer.readUInt32LE(offset) !== 0x02014b50) {
      throw new BadRequestError(`${NOT_EXCEL} (the zip directory is damaged)`);
    }
    const uncompressed = buffer.readUInt32LE(offset + 24);
    if (uncompressed === 0xffffffff) throw new BadRequestError(`${NOT_EXCEL} (zip64 archives are not accepted)`);
    total += uncompressed;
    if (total > MAX_UNCOMPRESSED_BYTES) {
      throw new PayloadTooLargeError(
        `The workbook unpacks to more than ${megabytes(MAX_UNCOMPRESSED_BYTES)}; it cannot be imported`,
      );
    }
    offset +=
      46 + buffer.readUInt16LE(offset + 28) + buffer.readUInt16LE(offset + 30) + buffer.readUInt16LE(offset + 32);
  }
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  // Numeric cells are read as their text: 7 is class "7", 919876543210 a phone, never 9.19E+11.
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(0) : String(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value).trim();
}

/** The first sheet that is not the template's Instructions sheet. */
function dataSheet(workbook: XLSX.WorkBook): XLSX.WorkSheet | undefined {
  const name = workbook.SheetNames.find((sheet) => sheet.trim().toLowerCase() !== 'instructions');
  return name === undefined ? undefined : workbook.Sheets[name];
}

export function readSheet(buffer: Buffer, limits: ReadLimits): Sheet {
  if (buffer.length > limits.maxBytes) throw fileTooLarge(limits.maxBytes);
  if (buffer.length === 0) throw new BadRequestError('The file is empty');
  const isZip = buffer.subarray(0, 4).equals(ZIP_MAGIC);
  const isOle = buffer.subarray(0, 8).equals(OLE2_MAGIC);
  if (!isZip && !isOle) throw new BadRequestError(NOT_EXCEL);
  if (isZip) assertSafeZip(buffer);

  let workbook: XLSX.WorkBook;
  try {
    workbook = XLSX.read(buffer, {
      type: 'buffer',
      dense: true,
      cellFormula: false,
      cellHTML: false,
      cellText: false,
      cellStyles: false,
      bookVBA: false,
      sheetRows: limits.maxRows + 1,
      WTF: false,
    });
  } catch {
    throw new BadRequestError(`${NOT_EXCEL} (it could not be read)`);
  }
  const sheet = dataSheet(workbook);
  if (!sheet?.['!ref']) throw new BadRequestError('The workbook has no sheet with data');

  // With sheetRows the reader stops early and keeps the sheet's real size in !fullref.
  const full = XLSX.utils.decode_range(sheet['!fullref'] ?? sheet['!ref']);
  const dataRows = full.e.r - full.s.r;
  if (dataRows > limits.maxRows) {
    throw new PayloadTooLargeError(
      `The file has ${dataRows} rows under the header; at most ${limits.maxRows} can be imported at once. Split it into smaller files`,
    );
  }

  const grid = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: null, blankrows: true });
  const firstRow = XLSX.utils.decode_range(sheet['!ref']).s.r;
  const [header = [], ...body] = grid;
  const headers = header.map(cellText);
  if (headers.every((name) => name === '')) {
    throw new BadRequestError('The first row must hold the column names, and it is empty');
  }
  const rows: SheetRow[] = [];
  body.forEach((cells, index) => {
    const texts = headers.map((_, column) => cellText(cells?.[column]));
    if (texts.every((text) => text === '')) return; // blank rows are skipped, not reported
    rows.push({ row: firstRow + index + 2, cells: texts });
  });
  if (rows.length === 0) {
    throw new BadRequestError('The file has no data rows under the header; add one row per record and try again');
  }
  return { headers, rows };
}

/** A workbook of one data sheet and an Instructions sheet, as an .xlsx file. */
export function writeWorkbook(name: string, table: string[][], instructions: string[]): Buffer {
  const workbook = XLSX.utils.book_new();
  const sheet = XLSX.utils.aoa_to_sheet(table);
  sheet['!cols'] = (table[0] ?? []).map((heading) => ({ wch: Math.max(14, heading.length + 4) }));
  XLSX.utils.book_append_sheet(workbook, sheet, name);
  const help = XLSX.utils.aoa_to_sheet(instructions.map((line) => [line]));
  help['!cols'] = [{ wch: 110 }];
  XLSX.utils.book_append_sheet(workbook, help, 'Instructions');
  return XLSX.write(workbook, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
}
