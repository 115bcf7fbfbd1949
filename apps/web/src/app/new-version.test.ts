import { describe, expect, it, vi } from 'vitest';
import { entryScriptOf, isChunkLoadError, reloadOnceIfNewVersion, type VersionCheck } from './new-version';

const page = (entry: string) =>
  `<!doctype html><html><head><script type="module" crossorigin src="${entry}"></script></head><body></body></html>`;

function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> {
  const kept = new Map<string, string>();
  return { getItem: (key) => kept.get(key) ?? null, setItem: (key, value) => void kept.set(key, value) };
}

function check(
  fields: Partial<VersionCheck> & { served: string | Error },
): VersionCheck & { reload: ReturnType<typeof vi.fn<() => void>> } {
  const { served, ...rest } = fields;
  return {
    running: '/assets/console-old111.js',
    fetchIndex: async () => {
      if (served instanceof Error) throw served;
      return served;
    },
    storage: memoryStorage(),
    ...rest,
    reload: vi.fn<() => void>(),
  };
}

describe('telling a page whose code could not be fetched from one that failed', () => {
  it('knows the browsers’ words for a module that could not be fetched', () => {
    for (const text of [
      'Failed to fetch dynamically imported module: http://x/assets/history-page-abc.js',
      'error loading dynamically imported module: http://x/assets/a.js',
      'Importing a module script failed.',
      'Unable to preload CSS for /assets/a.css',
    ]) {
      expect(isChunkLoadError(new TypeError(text))).toBe(true);
    }
  });

  it('does not take a page’s own error for a fetch failure', () => {
    expect(isChunkLoadError(new TypeError("Cannot read properties of undefined (reading 'map')"))).toBe(false);
    expect(isChunkLoadError(undefined)).toBe(false);
  });

  it('reads the entry script from an index page', () => {
    expect(entryScriptOf(page('/assets/console-AbC123.js'))).toBe('/assets/console-AbC123.js');
    expect(entryScriptOf('<html><body>Not the console</body></html>')).toBeUndefined();
  });
});

describe('reloading once for a new version', () => {
  it('reloads when the server names another entry script', async () => {
    const version = check({ served: page('/assets/console-new222.js') });
    expect(await reloadOnceIfNewVersion(version)).toBe(true);
    expect(version.reload).toHaveBeenCalledTimes(1);
  });

  it('reloads once only for the same new version, whatever fails after', async () => {
    const storage = memoryStorage();
    const first = check({ served: page('/assets/console-new222.js'), storage });
    const second = check({ served: page('/assets/console-new222.js'), storage });
    expect(await reloadOnceIfNewVersion(first)).toBe(true);
    expect(await reloadOnceIfNewVersion(second)).toBe(false);
    expect(second.reload).not.toHaveBeenCalled();
  });

  it('does not reload when the version is the same: the failure was the network, and Retry is the way', async () => {
    const version = check({ served: page('/assets/console-old111.js') });
    expect(await reloadOnceIfNewVersion(version)).toBe(false);
    expect(version.reload).not.toHaveBeenCalled();
  });

  it('does not reload when the index cannot be fetched or names no script', async () => {
    for (const served of [new TypeError('Failed to fetch'), '<html></html>']) {
      const version = check({ served });
      expect(await reloadOnceIfNewVersion(version)).toBe(false);
      expect(version.reload).not.toHaveBeenCalled();
    }
  });

  it('does not reload without storage to remember it by', async () => {
    const version = check({
      served: page('/assets/console-new222.js'),
      storage: {
        getItem: () => {
          throw new Error('storage is off');
        },
        setItem: () => undefined,
      },
    });
    expect(await reloadOnceIfNewVersion(version)).toBe(false);
    expect(version.reload).not.toHaveBeenCalled();
  });
});
