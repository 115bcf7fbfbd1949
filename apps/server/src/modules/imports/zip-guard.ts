import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { BadRequestError, PayloadTooLargeError } from '../../lib/errors';

/**
 * An .xlsx is a zip, and a zip is a promise about sizes that nothing enforces. The reader
 * (SheetJS) inflates every part in full before it checks anything, and it trusts the local headers,
 * not the directory. So before it sees the file we walk the archive the way it will (same end
 * record, same entry count, same data offsets) and inflate each part ourselves, off the event loop,
 * with a hard cap on what all parts together may unpack to. Declared sizes only give an early "no";
 * the cap on real output is what stops a zip bomb, lying headers included.
 */

export interface ZipLimits {
  /** Parts in the archive; a workbook has a few dozen. */
  maxEntries: number;
  /** What all parts together may unpack to. */
  maxUnpackedBytes: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = { maxEntries: 1000, maxUnpackedBytes: 50 * 1024 * 1024 };

const inflateRaw = promisify<zlib.InputType, zlib.ZlibOptions, Buffer>(zlib.inflateRaw);

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const ZIP64_EXTRA = 0x0001;
const ENCRYPTED_FLAGS = 0x2041; // traditional, strong or directory encryption

function megabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

function tooBig(limits: ZipLimits): PayloadTooLargeError {
  return new PayloadTooLargeError('imports.unpacks_too_large', { size: megabytes(limits.maxUnpackedBytes) });
}

function damaged(part?: string): BadRequestError {
  return part ? new BadRequestError('imports.damaged_part', { part }) : new BadRequestError('imports.damaged');
}

/** The uncompressed size a zip64 extra field gives, read as the ZIP format defines it (only when the header says 0xFFFFFFFF). */
function zip64Size(buffer: Buffer, start: number, length: number): number | undefined {
  let at = start;
  const end = Math.min(start + length, buffer.length);
  while (at + 4 <= end) {
    const type = buffer.readUInt16LE(at);
    const size = buffer.readUInt16LE(at + 2);
    if (type === ZIP64_EXTRA && size >= 8 && at + 12 <= end) return Number(buffer.readBigUInt64LE(at + 4));
    at += 4 + size;
  }
  return undefined;
}

/** Refuses (400/413) anything the reader should not be handed: see the module comment. */
export async function assertSafeZip(buffer: Buffer, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Promise<void> {
  // The reader takes the LAST end-of-directory signature in the file; so do we.
  let end = -1;
  for (let i = buffer.length - 4; i >= 0; i -= 1) {
    if (buffer.readUInt32LE(i) === END_OF_DIRECTORY) {
      end = i;
      break;
    }
  }
  if (end < 0 || end + 22 > buffer.length) throw damaged();

  // The reader counts entries with the "on this disk" field, the ZIP format with the total: they must agree.
  const entries = buffer.readUInt16LE(end + 8);
  if (entries !== buffer.readUInt16LE(end + 10)) throw damaged();
  if (entries === 0) throw damaged();
  if (entries > limits.maxEntries) {
    throw new BadRequestError('imports.too_many_zip_parts', { count: entries });
  }

  let at = buffer.readUInt32LE(end + 16);
  let declared = 0;
  const parts: { name: string; local: number }[] = [];
  for (let n = 0; n < entries; n += 1) {
    if (at + 46 > end || buffer.readUInt32LE(at) !== DIRECTORY_ENTRY) throw damaged();
    const nameLength = buffer.readUInt16LE(at + 28);
    const extraLength = buffer.readUInt16LE(at + 30);
    const commentLength = buffer.readUInt16LE(at + 32);
    const name = buffer.toString('latin1', at + 46, Math.min(at + 46 + nameLength, end));
    let size = buffer.readUInt32LE(at + 24);
    if (size === 0xffffffff) size = zip64Size(buffer, at + 46 + nameLength, extraLength) ?? size;
    if ((buffer.readUInt16LE(at + 8) & ENCRYPTED_FLAGS) !== 0) throw passwordProtected();
    declared += size;
    if (declared > limits.maxUnpackedBytes) throw tooBig(limits);
    parts.push({ name, local: buffer.readUInt32LE(at + 42) });
    at += 46 + nameLength + extraLength + commentLength;
  }

  let unpacked = 0;
  for (const part of parts) {
    const local = part.local;
    if (local + 30 > buffer.length || buffer.readUInt32LE(local) !== LOCAL_HEADER) throw damaged(part.name);
    const flags = buffer.readUInt16LE(local + 6);
    const method = buffer.readUInt16LE(local + 8);
    if ((flags & ENCRYPTED_FLAGS) !== 0) throw passwordProtected();
    const dataStart = local + 30 + buffer.readUInt16LE(local + 26) + buffer.readUInt16LE(local + 28);
    if (dataStart > buffer.length) throw damaged(part.name);
    if (method === 0) {
      unpacked += Math.min(buffer.readUInt32LE(local + 18), buffer.length - dataStart);
    } else if (method === 8) {
      // Like the reader, inflate from the data start to the end of the stream, wherever the headers say it ends.
      const remaining = Math.max(1, limits.maxUnpackedBytes - unpacked);
      let output: Buffer;
      try {
        output = await inflateRaw(buffer.subarray(dataStart), { maxOutputLength: remaining });
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooBig(limits);
        throw damaged(part.name);
      }
      unpacked += output.length;
    } else {
      throw new BadRequestError('imports.unknown_compression', { part: part.name });
    }
    if (unpacked > limits.maxUnpackedBytes) throw tooBig(limits);
  }
}

export function passwordProtected(): BadRequestError {
  return new BadRequestError('imports.password_protected');
}
