/**
 * Backup files on disk: writing one (owner-only, never over another, complete or not at all), listing
 * the ones in a directory, and reading one back as lines, with what is wrong with the file in words.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { formatTimestamp } from '../../lib/time';
import { BackupFileError, type BackupSummary, type BackupWriter } from './format';

/** No line of a backup comes near this; a longer one means the file is something else. */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** Why a backup was taken; it names the file. */
export type BackupKind = 'manual' | 'console' | 'before-clear-students' | 'before-clear-teachers';

export const BACKUP_FILE_PATTERN = /^tuitiondesk-[a-z]+(-[a-z]+)*-\d{8}-\d{6}(-\d+)?\.jsonl\.gz$/;

export interface BackupFile extends BackupSummary {
  /** The file's name, in `path`'s directory. */
  file: string;
  path: string;
  size_bytes: number;
}

/** `tuitiondesk-<kind>-YYYYMMDD-HHMMSS.jsonl.gz`, on the centre's clock (its time zone, ADR 042). */
export function backupFileName(kind: BackupKind, at: Date, attempt = 1): string {
  const local = formatTimestamp(at);
  const stamp = `${local.slice(0, 10).replaceAll('-', '')}-${local.slice(11, 19).replaceAll(':', '')}`;
  return `tuitiondesk-${kind}-${stamp}${attempt > 1 ? `-${attempt}` : ''}.jsonl.gz`;
}

/**
 * Writes a backup into `dir` (created, owner-only, if missing) as a new file that only its owner may
 * read: it holds children's names and parents' phone numbers. An existing file is never overwritten
 * (a second backup in the same second gets `-2`). The file appears under its name only once complete
 * and flushed to disk; until then it is an empty placeholder, which listings skip. On failure
 * nothing is left behind.
 */
export async function writeBackupFile(
  dir: string,
  kind: BackupKind,
  dump: (write: BackupWriter) => Promise<BackupSummary>,
): Promise<BackupFile> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const now = new Date();
  let file = '';
  for (let attempt = 1; !file; attempt += 1) {
    const name = backupFileName(kind, now, attempt);
    try {
      await (await open(path.join(dir, name), 'wx', 0o600)).close();
      file = name;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 1000) throw error;
    }
  }
  const finalPath = path.join(dir, file);
  const partialPath = path.join(dir, `.${file}.partial`);
  const gzip = createGzip({ level: 6 });
  // `flush`: the data is on the disk before the file is closed, and so before it takes its name.
  const output = createWriteStream(partialPath, { flags: 'wx', mode: 0o600, flush: true });
  const written = pipeline(gzip, output);
  written.catch(() => {}); // awaited below; a failure also fails the writes
  try {
    const summary = await dump(async (text) => {
      if (!gzip.write(text)) await Promise.race([once(gzip, 'drain'), written]);
    });
    gzip.end();
    await written;
    await rename(partialPath, finalPath);
    await syncDirectory(dir);
    const { size } = await stat(finalPath);
    return { file, path: finalPath, size_bytes: size, ...summary };
  } catch (error) {
    gzip.destroy();
    output.destroy();
    await written.catch(() => {});
    await unlink(partialPath).catch(() => {});
    await unlink(finalPath).catch(() => {});
    throw error;
  }
}

/** So that the rename survives a power cut (where the file system allows it). */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // not supported here
  }
}

export interface ListedBackup {
  file: string;
  path: string;
  size_bytes: number;
  created_at: string;
}

/** The complete backup files in `dir`, newest first (none when the directory does not exist). */
export async function listBackupFiles(dir: string): Promise<ListedBackup[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files: (ListedBackup & { mtime: number })[] = [];
  for (const name of names.filter((n) => BACKUP_FILE_PATTERN.test(n))) {
    const full = path.join(dir, name);
    const info = await stat(full).catch(() => undefined);
    if (!info?.isFile() || info.size === 0) continue; // gone, or still being written
    files.push({
      file: name,
      path: full,
      size_bytes: info.size,
      created_at: formatTimestamp(info.mtime),
      mtime: info.mtimeMs,
    });
  }
  files.sort((a, b) => b.mtime - a.mtime || (a.file < b.file ? 1 : -1));
  return files.map(({ mtime: _mtime, ...rest }) => rest);
}

/** Opens the backup file anew (a restore reads it twice: once to check it, once to load it). */
export type BackupSource = () => Readable;

export interface Line {
  /** 1-based, in the uncompressed file. */
  number: number;
  bytes: Buffer;
}

/** The file's lines in batches (whatever one chunk held), with the gzip errors put in words. */
export async function* lineBatches(source: BackupSource, label: string): AsyncGenerator<Line[]> {
  const input = source();
  const gunzip = createGunzip();
  input.on('error', (error) => gunzip.destroy(error));
  input.pipe(gunzip);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let number = 0;
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      const lines: Line[] = [];
      let start = 0;
      for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
        let bytes = chunk.subarray(start, end);
        if (pending.length > 0) {
          bytes = Buffer.concat([...pending, bytes]);
          pending = [];
          pendingBytes = 0;
        }
        number += 1;
        lines.push({ number, bytes });
        start = end + 1;
      }
      if (start < chunk.length) {
        pending.push(chunk.subarray(start));
        pendingBytes += chunk.length - start;
        if (pendingBytes > MAX_LINE_BYTES) {
          throw new BackupFileError(
            `The file ${label} is not a TuitionDesk backup: line ${number + 1} is longer than 64 MB`,
          );
        }
      }
      if (lines.length > 0) yield lines;
    }
    if (pending.length > 0) yield [{ number: number + 1, bytes: Buffer.concat(pending) }];
  } catch (error) {
    throw gzipError(error, label);
  } finally {
    input.destroy();
    gunzip.destroy();
  }
}

function gzipError(error: unknown, label: string): Error {
  if (error instanceof BackupFileError) return error;
  const e = error as NodeJS.ErrnoException;
  if (e.code === 'ENOENT') return new BackupFileError(`The file ${label} does not exist`);
  if (e.code === 'EISDIR') return new BackupFileError(`The file ${label} is a directory, not a backup file`);
  if (e.code === 'EACCES') return new BackupFileError(`The file ${label} cannot be read (permission denied)`);
  if (e.code === 'Z_DATA_ERROR' && /incorrect header check|unknown compression method/.test(e.message)) {
    return new BackupFileError(
      `The file ${label} is not a TuitionDesk backup: it is not a gzip file (a backup is a .jsonl.gz file)`,
    );
  }
  if (e.code === 'Z_BUF_ERROR' || /unexpected end of file/.test(e.message ?? '')) {
    return new BackupFileError(
      `The file ${label} is truncated: its compressed data ends early (the copy is incomplete)`,
    );
  }
  if (typeof e.code === 'string' && e.code.startsWith('Z_')) {
    return new BackupFileError(`The file ${label} is corrupted: its compressed data is damaged (${e.message})`);
  }
  return error instanceof Error ? error : new Error(String(error));
}
