import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsedFont, sfntOfWoff } from '../src/modules/fees/receipt-fonts';

/**
 * The receipt fonts, parsed once per process (ADR 057): each WOFF file is unwrapped into the plain
 * font it holds, which fontkit then reads as it read the WOFF, glyph for glyph.
 */
const require = createRequire(import.meta.url);
const fontkit = require('fontkit') as { create(bytes: Uint8Array): FontView };

interface FontView {
  postscriptName: string;
  numGlyphs: number;
  unitsPerEm: number;
  layout(text: string): { glyphs: { id: number; advanceWidth: number }[] };
  getGlyph(id: number): { path: { toSVG(): string } };
}

const woffOf = (pkg: string, file: string) =>
  readFileSync(path.join(path.dirname(require.resolve(pkg)), 'files', file));

const shaped = (font: FontView, text: string) =>
  font.layout(text).glyphs.map((glyph) => [glyph.id, glyph.advanceWidth, font.getGlyph(glyph.id).path.toSVG()]);

describe('a receipt font unwrapped from its WOFF file', () => {
  it.each([
    ['@fontsource/noto-nastaliq-urdu', 'noto-nastaliq-urdu-arabic-400-normal.woff', 'ادائیگی موصول ہوئی'],
    ['@fontsource/noto-sans-tamil', 'noto-sans-tamil-tamil-400-normal.woff', 'கட்டணம் பெறப்பட்டது'],
    ['@fontsource/noto-sans-devanagari', 'noto-sans-devanagari-devanagari-400-normal.woff', 'भुगतान प्राप्त ₹'],
  ])('%s sets the same glyphs, advances and outlines as the WOFF itself', (pkg, file, text) => {
    const woff = woffOf(pkg, file);
    const sfnt = sfntOfWoff(woff);
    expect(sfnt.toString('latin1', 0, 4)).not.toBe('wOFF');
    const fromWoff = fontkit.create(woff);
    const fromSfnt = fontkit.create(sfnt);
    expect(fromSfnt.postscriptName).toBe(fromWoff.postscriptName);
    expect(fromSfnt.numGlyphs).toBe(fromWoff.numGlyphs);
    expect(fromSfnt.unitsPerEm).toBe(fromWoff.unitsPerEm);
    expect(shaped(fromSfnt, text)).toEqual(shaped(fromWoff, text));
    expect(shaped(fromSfnt, text).length).toBeGreaterThan(3);
  });

  it('leaves a font that is not a WOFF as it is', () => {
    const plain = sfntOfWoff(woffOf('@fontsource/noto-sans-tamil', 'noto-sans-tamil-tamil-400-normal.woff'));
    expect(sfntOfWoff(plain)).toBe(plain);
  });

  it('is parsed once per process: every document gets the same font', () => {
    expect(parsedFont('arabic')).toBe(parsedFont('arabic'));
    expect(parsedFont('tamil')).not.toBe(parsedFont('arabic'));
  });
});
