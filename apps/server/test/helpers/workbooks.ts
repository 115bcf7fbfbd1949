import zlib from 'node:zlib';
import * as XLSX from '@e965/xlsx';

/** Builders for the import tests: workbooks as Excel writes them, hand-made zips, multipart bodies. */

export type Cell = string | number | boolean | null;

export interface WorkbookOptions {
  bookType?: 'xlsx' | 'biff8';
  sheetName?: string;
  /** A sheet put before the data sheet (the template's Instructions, say). */
  sheetBefore?: { name: string; rows: Cell[][]; hidden?: boolean };
}

export function workbook(rows: Cell[][], options: WorkbookOptions = {}): Buffer {
  const book = XLSX.utils.book_new();
  if (options.sheetBefore) {
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(options.sheetBefore.rows), options.sheetBefore.name);
    if (options.sheetBefore.hidden) {
      book.Workbook = { Sheets: [{ name: options.sheetBefore.name, Hidden: 1 }] };
    }
  }
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), options.sheetName ?? 'Data');
  // Excel compresses every part; so do we, so the zip checks see what real files hold.
  return XLSX.write(book, { type: 'buffer', bookType: options.bookType ?? 'xlsx', compression: true }) as Buffer;
}

/** The parts of an .xlsx, by path inside the zip. */
export function zipParts(file: Buffer): Map<string, Buffer> {
  const container = XLSX.CFB.read(file, { type: 'buffer' }) as {
    FullPaths: string[];
    FileIndex: { type: number; content?: Uint8Array }[];
  };
  const parts = new Map<string, Buffer>();
  container.FileIndex.forEach((entry, index) => {
    const path = (container.FullPaths[index] ?? '').replace(/^[^/]*\//, '');
    // \x01Sh33tJ5 is the reader's own marker, not a part of the file.
    if (entry.type === 2 && entry.content && !path.startsWith('\x01')) parts.set(path, Buffer.from(entry.content));
  });
  return parts;
}

export interface ZipEntry {
  name: string;
  content: Buffer;
  /** 8 (deflate, the default) or 0 (stored). */
  method?: number;
  /** What the headers claim the part unpacks to; the truth when left out. */
  declaredSize?: number;
  /** Already-packed bytes to write as the part's data, instead of deflating `content`. */
  raw?: Buffer;
  flags?: number;
}

interface EntryFields {
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  nameLength: number;
}

/** The fields a zip entry's local and central headers share, written from `at` (dates left zero). */
function writeEntryFields(header: Buffer, at: number, fields: EntryFields): void {
  header.writeUInt16LE(20, at);
  header.writeUInt16LE(fields.flags, at + 2);
  header.writeUInt16LE(fields.method, at + 4);
  header.writeUInt32LE(fields.crc, at + 10);
  header.writeUInt32LE(fields.compressedSize, at + 14);
  header.writeUInt32LE(fields.size, at + 18);
  header.writeUInt16LE(fields.nameLength, at + 22);
}

/** A zip written by hand, so tests can make one lie about its sizes or carry a damaged stream. */
export function buildZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const method = entry.method ?? 8;
    const data = entry.raw ?? (method === 8 ? zlib.deflateRawSync(entry.content) : entry.content);
    const name = Buffer.from(entry.name);
    const size = entry.declaredSize ?? entry.content.length;
    const crc = zlib.crc32(entry.content);
    // Both headers carry the same run of fields, from "version needed" to the name's length; the
    // local one has it after its signature, the central one after "version made by" as well.
    const fields = { flags: entry.flags ?? 0, method, crc, compressedSize: data.length, size, nameLength: name.length };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeEntryFields(local, 4, fields);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    writeEntryFields(central, 6, fields);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    directory.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const directoryBytes = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directoryBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directoryBytes, end]);
}

/** A real workbook's parts, rewritten through buildZip with some of them changed. */
export function rebuildWorkbook(file: Buffer, change: (name: string, content: Buffer) => Partial<ZipEntry>): Buffer {
  return buildZip([...zipParts(file)].map(([name, content]) => ({ name, content, ...change(name, content) })));
}

export interface MultipartPart {
  field: string;
  filename?: string;
  content: Buffer | string;
}

export function multipartBody(parts: MultipartPart[], boundary = '----tuitiondesk-test-boundary') {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.field}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\n` +
          (part.filename === undefined ? '\r\n' : 'Content-Type: application/octet-stream\r\n\r\n'),
      ),
      Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
