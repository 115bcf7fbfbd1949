// Shared by the bench scripts: the built server on a fresh database with its admin signed in, where the
// figures go, workbooks to import, and the median.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import { choosePassword, ROOT, startServer } from '../scripts/kit/server';

// Neither common nor holding the username: the server refuses those (ADR 020).
export const ADMIN_PASSWORD = 'Bench-Console-Harbour-3';
/** The first admin's password, given at the first start (or the seed) and changed at the first sign-in. */
export const INITIAL_PASSWORD = 'bench-initial-password';

/** Where each script writes its figures as JSON (bench/report.ts turns them into a page). */
export function resultsDir(): string {
  const dir = process.env.BENCH_RESULTS_DIR ?? path.join(ROOT, 'bench/results');
  mkdirSync(dir, { recursive: true });
  return dir;
}

export interface BenchServer {
  base: string;
  /** The admin's session. */
  token: string;
  pid: number;
  stop: () => Promise<void>;
}

/**
 * The built server (console included), its admin signed in with ADMIN_PASSWORD. A fresh embedded
 * database by default; `dataDir` (already seeded) or `databaseUrl` to run on another.
 */
export async function startBenchServer(
  options: { dataDir?: string; databaseUrl?: string; env?: Record<string, string> } = {},
): Promise<BenchServer> {
  const server = await startServer({
    ...options,
    env: { ADMIN_PASSWORD: INITIAL_PASSWORD, ...options.env },
    output: 'inherit',
    timeoutMs: 100_000,
  });
  const token = await choosePassword(server.base, 'admin', INITIAL_PASSWORD, ADMIN_PASSWORD);
  return { base: server.base, token, pid: server.pid, stop: server.stop };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const at = (index: number) => sorted[index] ?? Number.NaN;
  return sorted.length % 2 ? at(middle) : (at(middle - 1) + at(middle)) / 2;
}

/** An .xlsx file of one sheet holding `rows` (the header row first), as the import screens take it. */
export function workbookFile(sheetName: string, rows: (string | number)[][]): Blob {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), sheetName);
  return new Blob([new Uint8Array(XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer)]);
}
