import { describe, expect, it } from 'vitest';
import { isBuiltFont } from './font-cache';

const ORIGIN = 'https://centre.example';
const at = (path: string, origin = ORIGIN) => new URL(path, origin);

describe("the worker's font cache", () => {
  it("keeps the build's font files (woff2, and the woff fallback)", () => {
    expect(isBuiltFont(at('/assets/noto-sans-devanagari-devanagari-400-normal-BlDd6KY1.woff2'), ORIGIN)).toBe(true);
    expect(isBuiltFont(at('/assets/noto-nastaliq-urdu-arabic-700-normal-CV4fHIsl.woff2'), ORIGIN)).toBe(true);
    expect(isBuiltFont(at('/assets/noto-sans-tamil-tamil-400-normal-Bt0_HtAo.woff'), ORIGIN)).toBe(true);
  });

  it('leaves everything else to the other routes: code, styles, pages, the API, other origins', () => {
    expect(isBuiltFont(at('/assets/devanagari-400-JlWPCShl.css'), ORIGIN)).toBe(false);
    expect(isBuiltFont(at('/assets/console-Ce66Bo5o.js'), ORIGIN)).toBe(false);
    expect(isBuiltFont(at('/dashboard'), ORIGIN)).toBe(false);
    expect(isBuiltFont(at('/api/v1/fonts/x.woff2'), ORIGIN)).toBe(false);
    expect(isBuiltFont(at('/assets/nested/x.woff2'), ORIGIN)).toBe(false);
    expect(isBuiltFont(at('/assets/x.woff2', 'https://fonts.example'), ORIGIN)).toBe(false);
  });
});
