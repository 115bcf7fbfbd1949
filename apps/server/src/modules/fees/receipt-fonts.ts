/**
 * The Noto fonts a receipt PDF is set in (ADR 057), read once from the @fontsource packages the
 * server depends on. Each package ships its script in one file and Latin (digits, punctuation) in
 * another, and only the Indic files hold ₹, so a text is set run by run, each run in the first font
 * that has its characters. pdfkit embeds only the fonts a document uses, each subset to its glyphs.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ParentLanguage } from '@tuitiondesk/contract';
import { SERVER_DIR } from '../../lib/server-dir';

export type ReceiptFont = 'latin' | 'latin-bold' | 'devanagari' | 'bengali' | 'tamil' | 'arabic';

const FILES: Record<ReceiptFont, [pkg: string, file: string]> = {
  latin: ['@fontsource/noto-sans', 'noto-sans-latin-400-normal.woff'],
  'latin-bold': ['@fontsource/noto-sans', 'noto-sans-latin-700-normal.woff'],
  devanagari: ['@fontsource/noto-sans-devanagari', 'noto-sans-devanagari-devanagari-400-normal.woff'],
  bengali: ['@fontsource/noto-sans-bengali', 'noto-sans-bengali-bengali-400-normal.woff'],
  tamil: ['@fontsource/noto-sans-tamil', 'noto-sans-tamil-tamil-400-normal.woff'],
  arabic: ['@fontsource/noto-nastaliq-urdu', 'noto-nastaliq-urdu-arabic-400-normal.woff'],
};

const requireFromServer = createRequire(path.join(SERVER_DIR, 'package.json'));
const loaded = new Map<ReceiptFont, Buffer>();

/** The font's bytes, read the first time a receipt needs them. */
export function fontBytes(font: ReceiptFont): Buffer {
  let bytes = loaded.get(font);
  if (!bytes) {
    const [pkg, file] = FILES[font];
    // The package's main file is its CSS at its root; the fonts are in files/ beside it.
    bytes = readFileSync(path.join(path.dirname(requireFromServer.resolve(pkg)), 'files', file));
    loaded.set(font, bytes);
  }
  return bytes;
}

/** Which font a character is set in, tried in order: the language's own script first. */
const SCRIPT_OF_LANGUAGE: Record<ParentLanguage, ReceiptFont> = {
  en: 'devanagari',
  hi: 'devanagari',
  mr: 'devanagari',
  ta: 'tamil',
  bn: 'bengali',
  ur: 'arabic',
};

const RANGES: [from: number, to: number, font: ReceiptFont][] = [
  [0x0900, 0x097f, 'devanagari'],
  [0xa8e0, 0xa8ff, 'devanagari'],
  [0x0980, 0x09ff, 'bengali'],
  [0x0b80, 0x0bff, 'tamil'],
  [0x0600, 0x06ff, 'arabic'],
  [0x0750, 0x077f, 'arabic'],
  [0xfb50, 0xfdff, 'arabic'],
  [0xfe70, 0xfeff, 'arabic'],
];

/** The font a character needs, or null for one any font sets (spaces, joiners): it goes with its neighbours. */
export function fontForCharacter(character: string, language: ParentLanguage): ReceiptFont | null {
  const code = character.codePointAt(0) ?? 0;
  if (character === ' ' || code === 0x200c || code === 0x200d) return null;
  const own = SCRIPT_OF_LANGUAGE[language];
  // The dandas are Devanagari's, and Bengali and Tamil text uses them too.
  if ((code === 0x0964 || code === 0x0965) && own !== 'arabic') return own;
  for (const [from, to, font] of RANGES) if (code >= from && code <= to) return font;
  // ₹ is only in the Indic fonts: the language's own (Devanagari's for English and Urdu).
  if (code === 0x20b9) return own === 'arabic' ? 'devanagari' : own;
  return 'latin';
}
