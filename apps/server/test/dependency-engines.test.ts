import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * The machines run Node 20 (the root package.json's engines say which). Every installed package must
 * accept it: a package whose engines ask for a newer Node may work today and break on the next call
 * it makes to an API Node 20 lacks. When an update pulls one in, pin it back with `overrides` in the
 * root package.json to the newest version that accepts Node 20, or hold its parent back.
 */
const root = new URL('../../../', import.meta.url);
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: unknown }>;
};
const ours = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { engines: { node: string } };

describe('installed packages', () => {
  it('all accept the oldest Node the product supports', () => {
    const oldest = semver.minVersion(ours.engines.node)?.version;
    expect(oldest).toMatch(/^20\./);
    const refusing = Object.entries(lock.packages).flatMap(([path, entry]) => {
      const engines = entry.engines;
      const range =
        engines && typeof engines === 'object' && 'node' in engines && typeof engines.node === 'string'
          ? engines.node
          : undefined;
      return range && !semver.satisfies(oldest as string, range)
        ? [`${path}@${entry.version} needs node ${range}`]
        : [];
    });
    expect(refusing).toEqual([]);
  });
});
