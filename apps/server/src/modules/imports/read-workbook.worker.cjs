'use strict';
/**
 * Reads one uploaded workbook in a worker thread, so the parser (SheetJS) runs off the event loop and
 * under the time and memory limits the parent sets (spreadsheet.ts): a file that would make it spin
 * or swell costs the worker, never the server. Plain CommonJS, so it loads the same under tsx,
 * vitest and node without a transpiler.
 *
 * The whole sheet is read (no `sheetRows` cut-off): a cut-off would trust the sheet's declared size,
 * which a writer may leave out or get wrong, and rows past it would vanish without a word. What
 * bounds the work instead is the unpacked size (zip-guard.ts) and the worker's limits.
 *
 * In:  workerData = { bytes: Uint8Array, maxRows: number, maxColumns: number }
 * Out: { ok: true, sheet: { name, headerRow, headers, rows: [{ row, cells }] } }
 *      or { ok: false, problem: 'password' | 'unreadable' | 'no-data' | 'too-many-rows', message, count? }
 */
const { parentPort, workerData } = require('node:worker_threads');
const zlib = require('node:zlib');
const XLSX = require('@e965/xlsx');

// SheetJS prints parser warnings with console.error; they mean nothing to the server's operators.
console.error = () => {};
console.warn = () => {};
console.log = () => {};

// The reader's own pure-JS inflate loops forever on some damaged streams; Node's zlib throws instead.
// (bytesRead is the reader's name for what zlib now calls bytesWritten; the subclass avoids a
// deprecation warning.)
class InflateRaw extends zlib.InflateRaw {
  get bytesRead() {
    return this.bytesWritten;
  }
}
XLSX.CFB.utils.use_zlib({ InflateRaw, deflateRawSync: zlib.deflateRawSync });

const ERROR_TEXT = { 0: '#NULL!', 7: '#DIV/0!', 15: '#VALUE!', 23: '#REF!', 29: '#NAME?', 36: '#NUM!', 42: '#N/A' };

/** A cell as the text a person sees in it: numbers whole (7, never 7.0; 919876543210, never 9.2E+11). */
function cellText(cell) {
  if (!cell || cell.v === undefined || cell.v === null) return '';
  const value = cell.v;
  if (cell.t === 'e') return ERROR_TEXT[value] || '#ERROR!';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return '';
    if (Number.isInteger(value)) return Math.abs(value) < 1e21 ? value.toFixed(0) : String(value);
    return String(Number(value.toPrecision(15)));
  }
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  // Non-breaking and zero-width spaces come with text pasted from web pages and chat apps.
  return String(value)
    .replace(/[\u00a0\u2007\u202f]/g, ' ')
    .replace(/[\u200b-\u200d\ufeff]/g, '')
    .trim();
}

function rowTexts(row, width) {
  const texts = [];
  for (let column = 0; column < width; column += 1) texts.push(cellText(row ? row[column] : undefined));
  return texts;
}

function hasText(row, width) {
  if (!row) return false;
  const end = Math.min(row.length, width);
  for (let column = 0; column < end; column += 1) if (cellText(row[column]) !== '') return true;
  return false;
}

/** The data sheet: the first visible sheet with anything in it that is not the template's Instructions. */
function pickSheet(workbook, maxColumns) {
  const meta = workbook.Workbook?.Sheets || [];
  const candidates = workbook.SheetNames.map((name, index) => ({
    name,
    sheet: workbook.Sheets[name],
    hidden: Boolean(meta[index]?.Hidden),
  })).filter(
    (candidate) =>
      candidate.name.trim().toLowerCase() !== 'instructions' &&
      candidate.sheet &&
      (candidate.sheet['!data'] || []).some((row) => hasText(row, maxColumns)),
  );
  return candidates.find((candidate) => !candidate.hidden) || candidates[0];
}

function read({ bytes, maxRows, maxColumns }) {
  let workbook;
  try {
    workbook = XLSX.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      type: 'buffer',
      dense: true,
      cellFormula: false,
      cellHTML: false,
      cellText: false,
      cellStyles: false,
      cellDates: false,
      cellNF: false,
      sheetStubs: false,
      bookVBA: false,
      bookDeps: false,
      WTF: false,
    });
  } catch (error) {
    const message = String(error?.message || error);
    return { ok: false, problem: /password|encrypt/i.test(message) ? 'password' : 'unreadable', message };
  }
  const picked = pickSheet(workbook, maxColumns);
  if (!picked) return { ok: false, problem: 'no-data', message: 'no sheet holds any data' };

  const data = picked.sheet['!data'];
  let headerIndex = 0;
  while (!hasText(data[headerIndex], maxColumns)) headerIndex += 1;
  const headerCells = rowTexts(data[headerIndex], Math.min((data[headerIndex] || []).length, maxColumns));
  while (headerCells.length > 0 && headerCells[headerCells.length - 1] === '') headerCells.pop();

  // Count before building anything: a sheet over the limit is refused, not converted.
  const width = headerCells.length;
  const filled = [];
  for (let index = headerIndex + 1; index < data.length; index += 1)
    if (hasText(data[index], width)) filled.push(index);
  if (filled.length > maxRows) {
    return { ok: false, problem: 'too-many-rows', count: filled.length, message: `${filled.length} rows` };
  }
  const rows = filled.map((index) => ({ row: index + 1, cells: rowTexts(data[index], width) }));
  return { ok: true, sheet: { name: picked.name, headerRow: headerIndex + 1, headers: headerCells, rows } };
}

parentPort.postMessage(read(workerData));
