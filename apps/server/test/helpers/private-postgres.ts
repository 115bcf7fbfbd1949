/**
 * A PostgreSQL server of a test's own (initdb into a temporary directory, on a free port), so a
 * fault test can stop and restart it without disturbing the machine's server or other tests.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './server-process';

export interface PrivatePostgres {
  url: string;
  port: number;
  /** `pg_ctl stop`: fast (sessions ended, clean shutdown) or immediate (as if the machine lost power). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

/** The newest PostgreSQL binaries on the machine (Debian keeps them per major version), if any. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((version) => existsSync(path.join(root, version, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : path.join(root, versions[0], 'bin');
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL server binaries (initdb, pg_ctl) are not installed');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tuitiondesk-private-pg-'));
  const dataDir = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  // initdb refuses to run as root: as root, the cluster belongs to the postgres user.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  // Asynchronous, so a test's requests keep flowing while the server stops and starts.
  const run = async (program: string, args: string[]) => {
    const command = path.join(bin, program);
    try {
      await promisify(execFile)(
        asRoot ? 'runuser' : command,
        asRoot ? ['-u', 'postgres', '--', command, ...args] : args,
        { cwd: dir },
      );
    } catch (error) {
      const e = error as { stderr?: string; stdout?: string };
      throw new Error(`${program} ${args.join(' ')} failed: ${e.stderr ?? ''}${e.stdout ?? ''}`);
    }
  };
  await run('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=50 -c shared_buffers=32MB`;
  const start = () => run('pg_ctl', ['-D', dataDir, '-l', logFile, '-o', options, '-w', '-t', '60', 'start']);
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop: (mode = 'fast') => run('pg_ctl', ['-D', dataDir, '-m', mode, '-w', '-t', '60', 'stop']),
    start,
    destroy: async () => {
      await run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']).catch(() => {}); // may be stopped
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
