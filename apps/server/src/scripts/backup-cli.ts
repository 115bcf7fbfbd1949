/** What the backup and restore scripts share: paths as typed, and sizes and counts in words. */
import path from 'node:path';

/**
 * A path typed on the command line. npm runs the scripts in apps/server; INIT_CWD is where npm was
 * started (the repository's root for `npm run backup` there), so a relative path means what it
 * looked like.
 */
export function fromInvocationDir(typed: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), typed);
}

export function describeSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function describeTables(tables: Record<string, number>): string {
  const rows = Object.values(tables).reduce((sum, n) => sum + n, 0);
  const listed = Object.entries(tables)
    .filter(([, n]) => n > 0)
    .map(([name, n]) => `${name} ${n}`)
    .join(', ');
  return `${rows} rows${listed ? ` (${listed})` : ''}`;
}
