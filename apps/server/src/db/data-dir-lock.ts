import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {}

function isLiveServer(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // After a crash the pid may belong to an unrelated program by now; only a node process counts.
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('node');
  } catch {
    return true;
  }
}

/**
 * PGlite has no lock of its own, and two processes on one data directory silently lose rows. The
 * server takes this lock file before opening the database and refuses to start when a live server
 * holds it. Returns the function that releases it.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, 'tuitiondesk.lock');
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(lockPath, 'utf8').trim() === String(process.pid)) unlinkSync(lockPath);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let holder = Number.NaN;
      try {
        holder = Number(readFileSync(lockPath, 'utf8').trim());
      } catch {
        // removed between our open and read: try again
      }
      if (isLiveServer(holder)) {
        throw new DataDirLockedError(
          `Another TuitionDesk server (pid ${holder}) is using the data directory ${dataDir}. ` +
            'Stop it first, or start this one with another DATA_DIR.',
        );
      }
      try {
        unlinkSync(lockPath); // stale: its server is gone
      } catch {
        // someone else removed it first
      }
    }
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dataDir}; another server is starting on it.`);
}
