import type { Language } from './languages';

/**
 * The typeface of each script, shipped with the app (never from a CDN) and fetched only when its
 * language is chosen: Latin uses the system's font. Each face is fontsource's file of that script's
 * subset only, so a Latin letter it does not hold falls through to the system's font in the stack.
 */
const FONTS: Partial<Record<Language, { family: string; load: () => Promise<unknown> }>> = {
  hi: {
    family: '"Noto Sans Devanagari"',
    load: () =>
      Promise.all([
        import('@fontsource/noto-sans-devanagari/devanagari-400.css'),
        import('@fontsource/noto-sans-devanagari/devanagari-700.css'),
      ]),
  },
  mr: {
    family: '"Noto Sans Devanagari"',
    load: () =>
      Promise.all([
        import('@fontsource/noto-sans-devanagari/devanagari-400.css'),
        import('@fontsource/noto-sans-devanagari/devanagari-700.css'),
      ]),
  },
  ta: {
    family: '"Noto Sans Tamil"',
    load: () =>
      Promise.all([
        import('@fontsource/noto-sans-tamil/tamil-400.css'),
        import('@fontsource/noto-sans-tamil/tamil-700.css'),
      ]),
  },
  bn: {
    family: '"Noto Sans Bengali"',
    load: () =>
      Promise.all([
        import('@fontsource/noto-sans-bengali/bengali-400.css'),
        import('@fontsource/noto-sans-bengali/bengali-700.css'),
      ]),
  },
  ur: {
    family: '"Noto Nastaliq Urdu"',
    load: () =>
      Promise.all([
        import('@fontsource/noto-nastaliq-urdu/arabic-400.css'),
        import('@fontsource/noto-nastaliq-urdu/arabic-700.css'),
      ]),
  },
};

const SYSTEM_FONTS = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

/** The theme's font stack: the script's face first (it covers only its script), then the system's. */
export function fontFamilyFor(language: Language): string {
  const font = FONTS[language];
  return font ? `${font.family}, ${SYSTEM_FONTS}` : SYSTEM_FONTS;
}

/** Fetches the language's typeface; a failure leaves the system's font, which still shows the text. */
export function loadFont(language: Language): Promise<void> {
  const font = FONTS[language];
  return font
    ? font.load().then(
        () => undefined,
        () => undefined,
      )
    : Promise.resolve();
}
