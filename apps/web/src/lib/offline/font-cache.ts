/**
 * The typefaces of the languages other than English (ADR 035): the console's service worker keeps each
 * font file the first time the page draws it, so a language chosen online reads the same offline. The
 * font's CSS is precached with the rest of the build's CSS; the woff2 files are not (about 100 KB per
 * script, 300 KB for Urdu's Nastaliq), so an English reader never downloads them.
 */
export const FONT_CACHE = 'console-fonts';

/** Enough for every script's two weights (four scripts, 400 and 700) and a build's change of one. */
export const FONT_CACHE_ENTRIES = 12;

/**
 * A font file the build emitted under /assets/ (its name carries its content's hash, so a kept copy
 * is never stale): `/assets/noto-sans-devanagari-devanagari-400-normal-<hash>.woff2`.
 */
export function isBuiltFont(url: URL, origin: string): boolean {
  return url.origin === origin && /^\/assets\/[^/]+\.woff2?$/.test(url.pathname);
}
