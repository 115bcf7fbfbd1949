import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import type { Database } from '../../src/db/database';
import { freshDatabase } from './test-app';

/**
 * Temporary directories and empty migrated databases for one test file, all removed when the file's
 * tests have run. Call it at the top of the file.
 */
export function scratchSpace(prefix: string): { tempDir: () => string; emptyDatabase: () => Promise<Database> } {
  const dirs: string[] = [];
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return {
    tempDir: () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
      dirs.push(dir);
      return dir;
    },
    emptyDatabase: async () => {
      const { db, drop } = await freshDatabase();
      drops.push(drop);
      return db;
    },
  };
}
