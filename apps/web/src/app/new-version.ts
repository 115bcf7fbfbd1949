/**
 * A page whose code cannot be fetched may mean a new version is out: its files have new names and the
 * old ones are gone. The console then reloads itself, once, to take the new files. The version is the
 * name of the page's entry script, as the server's index.html names it now and as the running page
 * was started from; a reload is done at most once for each version (remembered for the tab in
 * sessionStorage), so nothing can make it reload over and over.
 */

const RELOADED_FOR_KEY = 'tuitiondesk.reloaded-for-version';

/** Error texts browsers give when a module or its styles could not be fetched. */
const CHUNK_FAILURES = [
  /failed to fetch dynamically imported module/i, // Chromium
  /error loading dynamically imported module/i, // Firefox
  /importing a module script failed/i, // Safari
  /unable to preload css/i, // Vite's preloading of a page's styles
];

/** The page's code (or its styles) could not be fetched, as opposed to failing while it ran. */
export function isChunkLoadError(error: unknown): boolean {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return CHUNK_FAILURES.some((pattern) => pattern.test(text));
}

/** The entry script an index.html starts: `/assets/console-AbC123.js`. */
export function entryScriptOf(html: string): string | undefined {
  return /<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/i.exec(html)?.[1];
}

export interface VersionCheck {
  /** The entry script of the page running now. */
  running: string | undefined;
  /** The server's index.html now (throws or answers undefined when it cannot be fetched). */
  fetchIndex: () => Promise<string | undefined>;
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  reload: () => void;
}

/** Reloads once if the server has a new version; answers whether it reloaded. */
export async function reloadOnceIfNewVersion(check: VersionCheck): Promise<boolean> {
  const html = await check.fetchIndex().catch(() => undefined);
  const latest = html === undefined ? undefined : entryScriptOf(html);
  if (!latest || !check.running || latest === check.running) return false;
  try {
    if (check.storage.getItem(RELOADED_FOR_KEY) === latest) return false;
    check.storage.setItem(RELOADED_FOR_KEY, latest);
  } catch {
    // Without storage there is no way to know a reload was already tried: no reload.
    return false;
  }
  check.reload();
  return true;
}

/** The check as the browser runs it: this document's entry script against the server's index.html now. */
export function browserVersionCheck(): VersionCheck {
  const running = document.querySelector<HTMLScriptElement>('script[type="module"][src]')?.getAttribute('src');
  return {
    running: running ?? undefined,
    // A query the service worker's precache does not know, so the server answers, not the kept copy.
    fetchIndex: async () => {
      const response = await fetch(`/?version=${Date.now()}`, { cache: 'no-store' });
      return response.ok ? response.text() : undefined;
    },
    storage: {
      getItem: (key) => window.sessionStorage.getItem(key),
      setItem: (key, value) => window.sessionStorage.setItem(key, value),
    },
    reload: () => window.location.reload(),
  };
}
