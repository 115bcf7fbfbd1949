import { Worker } from 'node:worker_threads';
import * as XLSX from '@e965/xlsx';
import { BadRequestError, PayloadTooLargeError } from '../../lib/errors';
import { assertSafeZip, DEFAULT_ZIP_LIMITS, passwordProtected, type ZipLimits } from './zip-guard';

/**
 * Uploaded workbooks are untrusted. In order: the name, the size, the magic bytes, the zip walk
 * with a cap on what the parts really unpack to (zip-guard.ts), then the reader itself in a worker
 * thread with a time limit and a memory limit (read-workbook.worker.cjs). Every failure is a 400 or
 * 413 that says what is wrong; none reaches the client as a 500, and none can hold the event loop.
 */

export const EXCEL_EXTENSIONS = ['.xlsx', '.xls'] as const;
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE2_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** Columns beyond this are not looked at; the widest import has ten. */
const MAX_COLUMNS = 100;
const WORKER_URL = new URL('./read-workbook.worker.cjs', import.meta.url);

export interface SheetRow {
  /** The row's number in the spreadsheet (the header row is usually row 1). */
  row: number;
  /** The cell texts, one per header column, trimmed; numbers as written (7, 919876543210). */
  cells: string[];
}

export interface Sheet {
  name: string;
  headerRow: number;
  headers: string[];
  /** Rows with anything in them under the header; blank rows are left out. */
  rows: SheetRow[];
}

export interface ReadLimits {
  maxBytes: number;
  maxRows: number;
  zip?: ZipLimits;
  /** How long the reader may take before the file is given up on. */
  timeoutMs?: number;
  /** The reader's heap, in MB. */
  memoryMb?: number;
}

const DEFAULT_TIMEOUT_MS = 20_000;
const DEFAULT_MEMORY_MB = 384;

export function assertExcelName(filename: string | undefined): void {
  const name = (filename ?? '').trim().toLowerCase();
  if (!EXCEL_EXTENSIONS.some((extension) => name.endsWith(extension))) {
    throw new BadRequestError('imports.not_excel_extension');
  }
}

/** `5 MB`, `1.5 MB`, `20 KB`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

export function fileTooLarge(maxBytes: number): PayloadTooLargeError {
  return new PayloadTooLargeError('imports.too_large', { size: formatSize(maxBytes) });
}

type WorkerAnswer =
  | { ok: true; sheet: Sheet }
  | { ok: false; problem: 'password' | 'unreadable' | 'no-data' | 'too-many-rows'; message: string; count?: number };

/** Runs the reader in its own thread; a reader that overruns its time or memory is stopped, and the file refused. */
function readInWorker(buffer: Buffer, maxRows: number, timeoutMs: number, memoryMb: number): Promise<WorkerAnswer> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_URL, {
      workerData: { bytes: buffer, maxRows, maxColumns: MAX_COLUMNS },
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    });
    let settled = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      settle();
      void worker.terminate();
    };
    const timer = setTimeout(
      () => finish(() => reject(new BadRequestError('imports.read_timeout', { seconds: Math.ceil(timeoutMs / 1000) }))),
      timeoutMs,
    );
    worker.once('message', (answer: WorkerAnswer) => finish(() => resolve(answer)));
    worker.once('error', (error: Error & { code?: string }) =>
      finish(() =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new PayloadTooLargeError('imports.too_much_memory')
            : new BadRequestError('imports.unreadable'),
        ),
      ),
    );
    worker.once('exit', () => finish(() => reject(new BadRequestError('imports.unreadable'))));
  });
}

export async function readSheet(buffer: Buffer, limits: ReadLimits): Promise<Sheet> {
  if (buffer.length > limits.maxBytes) throw fileTooLarge(limits.maxBytes);
  if (buffer.length === 0) throw new BadRequestError('imports.empty_file');
  const isZip = buffer.subarray(0, 4).equals(ZIP_MAGIC);
  const isOle = buffer.subarray(0, 8).equals(OLE2_MAGIC);
  if (!isZip && !isOle) throw new BadRequestError('imports.not_excel');
  if (isZip) await assertSafeZip(buffer, limits.zip ?? DEFAULT_ZIP_LIMITS);

  const answer = await readInWorker(
    buffer,
    limits.maxRows,
    limits.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    limits.memoryMb ?? DEFAULT_MEMORY_MB,
  );
  if (!answer.ok) {
    switch (answer.problem) {
      case 'password':
        throw passwordProtected();
      case 'no-data':
        throw new BadRequestError('imports.no_data');
      case 'too-many-rows':
        throw new PayloadTooLargeError('imports.too_many_rows', { count: Number(answer.count), max: limits.maxRows });
      default:
        throw new BadRequestError('imports.unreadable');
    }
  }
  return answer.sheet;
}

/** A workbook of one data sheet and an Instructions sheet, as an .xlsx file. */
export function writeWorkbook(
  name: string,
  table: string[][],
  instructions: string[],
  widths: number[] = (table[0] ?? []).map((heading) => Math.max(14, heading.length + 4)),
): Buffer {
  const workbook = XLSX.utils.book_new();
  const sheet = XLSX.utils.aoa_to_sheet(table);
  sheet['!cols'] = widths.map((wch) => ({ wch }));
  XLSX.utils.book_append_sheet(workbook, sheet, name);
  const help = XLSX.utils.aoa_to_sheet(instructions.map((line) => [line]));
  help['!cols'] = [{ wch: 120 }];
  XLSX.utils.book_append_sheet(workbook, help, 'Instructions');
  return XLSX.write(workbook, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
}
