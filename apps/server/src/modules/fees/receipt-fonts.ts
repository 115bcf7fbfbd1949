/**
 * The Noto fonts a receipt PDF is set in (ADR 057), read once from the @fontsource packages the
 * server depends on. Each package ships its script in one file and Latin (digits, punctuation) in
 * another, and only the Indic files hold ₹, so a text is set run by run, each run in the first font
 * that has its characters. pdfkit embeds only the fonts a document uses, each subset to its glyphs.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
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

/** What pdfkit needs of a font fontkit has parsed (pdfkit takes one in place of the file's bytes). */
export interface ParsedFont {
  layout(text: string): unknown;
  createSubset(): unknown;
}
// pdfkit's own fontkit (a direct dependency at the same version); it ships no types, so it is required,
// at the first receipt rather than with the server: most processes never draw one (ADR 067).
let fontkit: { create(bytes: Uint8Array): ParsedFont } | undefined;

/**
 * A WOFF file as the plain font (sfnt) it wraps: each table inflated once. fontkit reads a WOFF's tables
 * through a JavaScript inflate each time it needs one, and it needs `glyf` again for every glyph it
 * subsets, which made most of a receipt's time (ADR 057).
 */
export function sfntOfWoff(woff: Buffer): Buffer {
  if (woff.toString('latin1', 0, 4) !== 'wOFF') return woff;
  const count = woff.readUInt16BE(12);
  const tables = Array.from({ length: count }, (_, index) => {
    const at = 44 + index * 20;
    const [offset, compressed, length] = [
      woff.readUInt32BE(at + 4),
      woff.readUInt32BE(at + 8),
      woff.readUInt32BE(at + 12),
    ];
    const stored = woff.subarray(offset, offset + compressed);
    return {
      tag: woff.subarray(at, at + 4),
      checksum: woff.readUInt32BE(at + 16),
      data: compressed < length ? inflateSync(stored) : stored,
    };
  });
  const header = Buffer.alloc(12 + 16 * count);
  woff.copy(header, 0, 4, 8);
  const power = 2 ** Math.floor(Math.log2(count));
  header.writeUInt16BE(count, 4);
  header.writeUInt16BE(power * 16, 6);
  header.writeUInt16BE(Math.log2(power), 8);
  header.writeUInt16BE(count * 16 - power * 16, 10);
  const parts: Buffer[] = [header];
  let offset = header.length;
  tables.forEach((table, index) => {
    const at = 12 + index * 16;
    table.tag.copy(header, at);
    header.writeUInt32BE(table.checksum, at + 4);
    header.writeUInt32BE(offset, at + 8);
    header.writeUInt32BE(table.data.length, at + 12);
    const padded = Buffer.alloc(Math.ceil(table.data.length / 4) * 4);
    table.data.copy(padded);
    parts.push(padded);
    offset += padded.length;
  });
  return Buffer.concat(parts);
}

const loaded = new Map<ReceiptFont, ParsedFont>();

/**
 * The font parsed once per process, the first time a receipt needs it, and handed to every document
 * (pdfkit takes a parsed font as it takes bytes): each document used to parse the files again.
 */
export function parsedFont(font: ReceiptFont): ParsedFont {
  let parsed = loaded.get(font);
  if (!parsed) {
    const [pkg, file] = FILES[font];
    // The package's main file is its CSS at its root; the fonts are in files/ beside it.
    const bytes = readFileSync(path.join(path.dirname(requireFromServer.resolve(pkg)), 'files', file));
    fontkit ??= requireFromServer('fontkit') as { create(bytes: Uint8Array): ParsedFont };
    parsed = fontkit.create(sfntOfWoff(bytes));
    loaded.set(font, parsed);
  }
  return parsed;
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
