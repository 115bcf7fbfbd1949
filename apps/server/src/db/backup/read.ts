/**
 * Reading a backup: the whole file checked before anything is written (a header this code reads,
 * every row it announces, the trailer, the counts and the checksum), each failure a BackupFileError
 * that says what is wrong and where.
 */
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { type BackupSource, type Line, lineBatches } from './files';
import {
  BACKUP_FORMAT,
  BackupFileError,
  type BackupHeader,
  type BackupTrailer,
  headerSchema,
  READABLE_VERSIONS,
  trailerSchema,
} from './format';

function parseLine<T>(line: Line, schema: z.ZodType<T>): T | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line.bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

function readHeader(line: Line | undefined, label: string): BackupHeader {
  if (!line) throw new BackupFileError(`The file ${label} is empty: it is not a TuitionDesk backup`);
  const text = line.bytes.subarray(0, 4096).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(line.bytes.toString('utf8'));
  } catch {
    throw new BackupFileError(`The file ${label} is not a TuitionDesk backup: its first line is not a backup header`);
  }
  const format = (value as { format?: unknown } | null)?.format;
  if (format !== BACKUP_FORMAT) {
    throw new BackupFileError(
      `The file ${label} is not a TuitionDesk backup: its header names no format "${BACKUP_FORMAT}" (it starts ${JSON.stringify(text.slice(0, 60))})`,
    );
  }
  const version = (value as { version?: unknown }).version;
  if (typeof version !== 'number' || !READABLE_VERSIONS.includes(version)) {
    throw new BackupFileError(
      `The file ${label} is in backup format version ${JSON.stringify(version)}; this TuitionDesk reads versions ${READABLE_VERSIONS.join(' and ')}. Restore it with the TuitionDesk that wrote it, or a newer one`,
    );
  }
  const parsed = headerSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BackupFileError(
      `The file ${label} has a damaged header (${issue?.path.join('.') || 'header'}: ${issue?.message ?? 'invalid'})`,
    );
  }
  return parsed.data;
}

interface RowPlan {
  table: BackupHeader['tables'][number];
  /** The first line of this table's rows. */
  firstLine: number;
}

/** Which line each table's rows start on. */
function planRows(header: BackupHeader): { plans: RowPlan[]; trailerLine: number } {
  const plans: RowPlan[] = [];
  let line = 2;
  for (const table of header.tables) {
    plans.push({ table, firstLine: line });
    line += table.rows;
  }
  return { plans, trailerLine: line };
}

/** The table whose rows include `line`, and which of them it is. */
function placeOf(plans: RowPlan[], line: number): string {
  const plan = plans.findLast((p) => p.firstLine <= line);
  return plan ? `row ${line - plan.firstLine + 1} of ${plan.table.rows} of table ${plan.table.name}` : 'the header';
}

/**
 * Reads the whole file and checks it: a backup header this code reads, every row it announces, the
 * trailer, the counts and the checksum, and nothing after. Writes nothing; throws BackupFileError
 * naming what is wrong. With `onRows`, hands over each table's rows in order as it goes.
 */
export async function checkBackupFile(
  source: BackupSource,
  label: string,
  onRows?: (table: BackupHeader['tables'][number], rows: Line[]) => Promise<void>,
): Promise<{ header: BackupHeader; trailer: BackupTrailer }> {
  let header: BackupHeader | undefined;
  let trailer: BackupTrailer | undefined;
  let plans: RowPlan[] = [];
  let trailerLine = 0;
  const hash = createHash('sha256');
  const newline = Buffer.from('\n');
  let planIndex = 0;
  let lastLine = 0;
  let lastBytes: Buffer | undefined;
  for await (const batch of lineBatches(source, label)) {
    let rowsOfTable: Line[] = [];
    const flush = async () => {
      if (onRows && rowsOfTable.length > 0) await onRows((plans[planIndex] as RowPlan).table, rowsOfTable);
      rowsOfTable = [];
    };
    for (const line of batch) {
      lastLine = line.number;
      lastBytes = line.bytes;
      if (!header) {
        header = readHeader(line, label);
        ({ plans, trailerLine } = planRows(header));
        hash.update(line.bytes).update(newline);
        continue;
      }
      if (line.number < trailerLine) {
        while ((plans[planIndex + 1]?.firstLine ?? Number.POSITIVE_INFINITY) <= line.number) {
          await flush();
          planIndex += 1;
        }
        const { bytes } = line;
        if (bytes[0] !== 0x7b || bytes[bytes.length - 1] !== 0x7d) {
          throw new BackupFileError(
            `The file ${label} is corrupted: line ${line.number} (${placeOf(plans, line.number)}) is not a row`,
          );
        }
        hash.update(bytes).update(newline);
        rowsOfTable.push(line);
        continue;
      }
      if (line.number === trailerLine) {
        trailer = parseLine(line, trailerSchema);
        if (!trailer) {
          throw new BackupFileError(
            `The file ${label} is corrupted: line ${line.number} should be the trailer, after the last row, and is not` +
              ' (the file holds more rows than its header says, or the trailer is damaged)',
          );
        }
        continue;
      }
      if (line.bytes.length > 0) {
        throw new BackupFileError(
          `The file ${label} is corrupted: it has more lines after its trailer (line ${line.number})`,
        );
      }
    }
    await flush();
  }
  if (!header) throw new BackupFileError(`The file ${label} is empty: it is not a TuitionDesk backup`);
  if (!trailer) {
    if (lastLine > 1 && lastBytes && parseLine({ number: lastLine, bytes: lastBytes }, trailerSchema)) {
      throw new BackupFileError(
        `The file ${label} is corrupted: it holds fewer rows than its header says (its trailer is on line ${lastLine}, not ${trailerLine})`,
      );
    }
    const where = lastLine < trailerLine - 1 ? placeOf(plans, lastLine + 1) : 'the trailer';
    throw new BackupFileError(
      `The file ${label} is truncated: it ends at line ${lastLine}, before ${where} (the copy is incomplete)`,
    );
  }
  for (const table of header.tables) {
    if (trailer.tables[table.name] !== table.rows) {
      throw new BackupFileError(
        `The file ${label} is corrupted: its header and trailer disagree on the rows of table ${table.name}`,
      );
    }
  }
  if (Object.keys(trailer.tables).length !== header.tables.length) {
    throw new BackupFileError(`The file ${label} is corrupted: its header and trailer disagree on the tables`);
  }
  if (hash.digest('hex') !== trailer.sha256) {
    throw new BackupFileError(`The file ${label} is corrupted: its checksum does not match its contents`);
  }
  return { header, trailer };
}
