import createCache, { type EmotionCache } from '@emotion/cache';
import { prefixer } from 'stylis';

/** Left-to-right styles: emotion's usual processing. */
export const LTR_CACHE = createCache({ key: 'mui' });

let rtlCache: EmotionCache | undefined;

/**
 * Right-to-left styles (Urdu): MUI's stylis plugin mirrors every left and right in the styles
 * (margins, paddings, borders, positions). Fetched the first time a right-to-left language is chosen.
 */
export async function loadRtlCache(): Promise<void> {
  if (rtlCache) return;
  const { default: rtlPlugin } = await import('@mui/stylis-plugin-rtl');
  rtlCache = createCache({ key: 'muirtl', stylisPlugins: [prefixer, rtlPlugin] });
}

/** The styles' cache for a direction: the right-to-left one once fetched. */
export function cacheFor(direction: 'ltr' | 'rtl'): EmotionCache {
  return direction === 'rtl' && rtlCache ? rtlCache : LTR_CACHE;
}
