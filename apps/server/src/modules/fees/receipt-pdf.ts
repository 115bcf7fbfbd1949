/**
 * A receipt as a PDF (ADR 057): A5 portrait, in the family's language, set with the Noto fonts of
 * receipt-fonts.ts. `layoutReceipt` decides what the page says (pure, tested line by line);
 * `renderReceiptPdf` draws it with pdfkit. pdfkit shapes each run through fontkit (Indic conjuncts,
 * Arabic joining) but knows no bidirectional order: Urdu lines are ordered here, right to left, with
 * numbers and Latin words kept left to right inside them.
 */
import type { ParentLanguage, Receipt } from '@tuitiondesk/contract';
import type PDFDocument from 'pdfkit';
import { fontForCharacter, parsedFont, type ReceiptFont } from './receipt-fonts';
import {
  type ReceiptLine,
  recipientRows,
  reverseChargeRow,
  signatureLine,
  supplierLines,
} from './receipt-invoice-lines';
import { formatRate, formatRupees, modeWord, receiptText, rupeesInWords } from './receipt-texts';

export type { ReceiptLine };

export interface ReceiptLayout {
  language: ParentLanguage;
  rtl: boolean;
  title: string;
  lines: ReceiptLine[];
}

/** What the page says, top to bottom, in `language`; `dateIn` writes a day as the language reads it. */
export function layoutReceipt(
  receipt: Receipt,
  language: ParentLanguage,
  dateIn: (isoDate: string, language: ParentLanguage) => string,
): ReceiptLayout {
  const t = (key: Parameters<typeof receiptText>[1], params?: Record<string, string>) =>
    receiptText(language, key, params);
  const money = (paise: number) => formatRupees(paise, language);
  const nameOf = new Map(receipt.students.map((student) => [student.id, student.full_name]));
  const title = t(receipt.tax ? 'title.tax_invoice' : 'title.receipt');
  const lines: ReceiptLine[] = [{ kind: 'centre', text: receipt.centre_name }];
  if (receipt.tax) lines.push(...supplierLines(receipt.tax, t));
  lines.push({ kind: 'title', text: title });
  if (receipt.reversed && receipt.reversed_on) {
    lines.push({
      kind: 'reversed',
      text: t('reversed', { date: dateIn(receipt.reversed_on, language), reason: receipt.reversal_reason ?? '' }),
    });
  }
  const credit = receipt.credit_note;
  if (credit) {
    const issued = { number: credit.number, date: dateIn(credit.issued_on, language), invoice: receipt.receipt_number };
    lines.push({ kind: 'reversed', text: t('credit_note', issued) });
  }
  const payer = [receipt.parent_name, receipt.parent_phone].filter(Boolean).join(', ');
  lines.push(
    { kind: 'row', label: t('number'), value: receipt.receipt_number },
    { kind: 'row', label: t('date'), value: dateIn(receipt.received_on, language) },
    { kind: 'row', label: t('payer'), value: payer },
    ...(receipt.tax ? recipientRows(receipt.tax, t) : []),
  );
  if (receipt.students.length > 0) {
    lines.push({ kind: 'row', label: t('students'), value: receipt.students.map((s) => s.full_name).join(', ') });
  }
  lines.push({ kind: 'row', label: t('amount'), value: money(receipt.amount_paise), strong: true });
  if (language === 'en')
    lines.push({ kind: 'row', label: t('amount_words'), value: rupeesInWords(receipt.amount_paise) });
  lines.push({ kind: 'row', label: t('mode'), value: modeWord(language, receipt.mode) });
  if (receipt.reference) lines.push({ kind: 'row', label: t('reference'), value: receipt.reference });
  if (receipt.recorded_by) lines.push({ kind: 'row', label: t('recorded_by'), value: receipt.recorded_by });

  lines.push({ kind: 'section', text: t('allocations') });
  for (const allocation of receipt.allocations) {
    const label =
      allocation.student_id === null
        ? t('advance')
        : (nameOf.get(allocation.student_id) ?? `#${allocation.student_id}`);
    lines.push({ kind: 'row', label, value: money(allocation.amount_paise) });
  }

  if (receipt.tax) {
    const tax = receipt.tax;
    lines.push(
      { kind: 'section', text: `SAC ${tax.sac}` },
      { kind: 'row', label: t('place'), value: `${tax.place_of_supply_code} ${tax.place_of_supply_name}` },
      reverseChargeRow(t),
      { kind: 'row', label: t('taxable'), value: money(tax.taxable_paise) },
    );
    lines.push(...taxRows(tax, tax, t, money));
    lines.push({ kind: 'row', label: t('total'), value: money(receipt.amount_paise), strong: true });
    if (credit) {
      lines.push(
        { kind: 'section', text: t('credit_note.section', { number: credit.number }) },
        { kind: 'row', label: t('taxable'), value: money(credit.taxable_paise) },
        ...taxRows(tax, credit, t, money),
      );
    }
  }
  lines.push(
    { kind: 'row', label: t('balance'), value: money(receipt.balance_paise) },
    { kind: 'note', text: t('footer') },
  );
  if (receipt.tax) lines.push(signatureLine(receipt.centre_name, language));
  return { language, rtl: language === 'ur', title, lines };
}

type Figures = Pick<NonNullable<Receipt['tax']>, 'cgst_paise' | 'sgst_paise' | 'igst_paise'>;

/** The tax lines of `figures` (the invoice's, or its credit note's negated), at the invoice's rate. */
function taxRows(
  tax: NonNullable<Receipt['tax']>,
  figures: Figures,
  t: (key: Parameters<typeof receiptText>[1], params?: Record<string, string>) => string,
  money: (paise: number) => string,
): ReceiptLine[] {
  if (tax.igst_paise > 0) {
    return [
      { kind: 'row', label: t('igst', { rate: formatRate(tax.rate_basis_points) }), value: money(figures.igst_paise) },
    ];
  }
  const half = formatRate(tax.rate_basis_points / 2);
  return [
    { kind: 'row', label: t('cgst', { rate: half }), value: money(figures.cgst_paise) },
    { kind: 'row', label: t('sgst', { rate: half }), value: money(figures.sgst_paise) },
  ];
}

interface Run {
  font: ReceiptFont;
  text: string;
}

/** Consecutive characters that one font sets; spaces and joiners go with the run they are in. */
function fontRuns(text: string, language: ParentLanguage, bold: boolean): Run[] {
  const runs: Run[] = [];
  for (const character of text) {
    let font = fontForCharacter(character, language);
    if (font === 'latin' && bold) font = 'latin-bold';
    const last = runs[runs.length - 1];
    if (last && (font === null || font === last.font)) last.text += character;
    else runs.push({ font: font ?? (bold ? 'latin-bold' : 'latin'), text: character });
  }
  // A run that began with a space took the Latin font: give it to the run after it when that is the same script.
  return runs;
}

const MIRRORED: Record<string, string> = { '(': ')', ')': '(', '[': ']', ']': '[', '<': '>', '>': '<' };
const isArabic = (character: string) => fontForCharacter(character, 'ur') === 'arabic';
const isStrongLeftToRight = (character: string) => /[\p{L}\p{N}₹%]/u.test(character) && !isArabic(character);

/**
 * The runs of a line in the order they are drawn, left to right. Left-to-right languages: as written.
 * Urdu: the line runs right to left, a simplified Unicode bidirectional order: Arabic letters right to
 * left (fontkit orders a run's glyphs), a stretch of Latin letters and digits with the neutral
 * characters between them (₹1,250.00, R/2026-27/000123, a name) left to right, and other neutral
 * characters (spaces, colons, brackets, mirrored) in the line's direction.
 */
export function visualRuns(text: string, language: ParentLanguage, rtl: boolean, bold = false): Run[] {
  if (!rtl) return fontRuns(text, language, bold);
  const characters = [...text];
  const direction = characters.map((c, index) => {
    if (isArabic(c)) return 'R';
    // A sign before a digit belongs to the number (-₹250.00, +91…).
    const signed = (c === '-' || c === '+') && /[\d₹]/u.test(characters[index + 1] ?? '');
    return isStrongLeftToRight(c) || signed ? 'L' : 'N';
  });
  // A neutral between two left-to-right characters is left to right; any other neutral follows the line.
  for (let index = 0; index < characters.length; index += 1) {
    if (direction[index] !== 'N') continue;
    let end = index;
    while (end < characters.length && direction[end] === 'N') end += 1;
    const resolved = direction[index - 1] === 'L' && direction[end] === 'L' ? 'L' : 'R';
    for (let at = index; at < end; at += 1) direction[at] = resolved;
    index = end - 1;
  }
  const segments: { direction: string; text: string }[] = [];
  characters.forEach((character, index) => {
    const last = segments[segments.length - 1];
    if (last && last.direction === direction[index]) last.text += character;
    else segments.push({ direction: direction[index] as string, text: character });
  });
  return segments.reverse().flatMap((segment) => {
    if (segment.direction === 'L') return fontRuns(segment.text, language, bold);
    // Right to left: the runs in reverse. pdfkit shapes an Arabic run word by word (fontkit orders each
    // word's glyphs right to left) but sets the words left to right: the words go in reverse here. Other
    // characters in reverse, brackets mirrored.
    return fontRuns(segment.text, language, bold)
      .reverse()
      .flatMap((run) =>
        run.font === 'arabic'
          ? run.text
              .split(/( +)/)
              .filter(Boolean)
              .reverse()
              .map((part) => ({ font: run.font, text: part }))
          : [
              {
                font: run.font,
                text: [...run.text]
                  .reverse()
                  .map((c) => MIRRORED[c] ?? c)
                  .join(''),
              },
            ],
      );
  });
}

const PAGE = { size: 'A5' as const, margin: 36 };
const COLOURS = { text: '#1a1a1a', muted: '#555555', rule: '#bbbbbb', reversed: '#b00020' };

type Doc = InstanceType<typeof PDFDocument>;

function registerFonts(doc: Doc): void {
  for (const font of ['latin', 'latin-bold', 'devanagari', 'bengali', 'tamil', 'arabic'] as const) {
    // A parsed font in place of bytes (pdfkit's font factory takes either): parsed once per process.
    doc.registerFont(font, parsedFont(font) as unknown as Buffer);
  }
}

function widthOf(doc: Doc, runs: readonly Run[], size: number): number {
  return runs.reduce((sum, run) => sum + doc.font(run.font).fontSize(size).widthOfString(run.text), 0);
}

/** Greedy word wrap in reading order; a word wider than the line (a long reference) is cut where it must be. */
function wrap(doc: Doc, text: string, width: number, size: number, layout: ReceiptLayout, bold: boolean): string[] {
  const fits = (line: string) => widthOf(doc, visualRuns(line, layout.language, layout.rtl, bold), size) <= width;
  // Most lines fit: measured once, not word by word (shaping, Nastaliq's above all, is the cost).
  if (fits(text)) return [text];
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = current ? `${current} ${word}` : word;
    if (fits(candidate)) {
      current = candidate;
      continue;
    }
    if (current) lines.push(current);
    current = word;
    while (!fits(current)) {
      const characters = [...current];
      // The longest start that fits (at least one character), found by halving.
      let [low, high] = [1, characters.length - 1];
      while (low < high) {
        const middle = Math.ceil((low + high) / 2);
        if (fits(characters.slice(0, middle).join(''))) low = middle;
        else high = middle - 1;
      }
      const cut = low;
      lines.push(characters.slice(0, cut).join(''));
      current = characters.slice(cut).join('');
    }
  }
  if (current) lines.push(current);
  return lines.length > 0 ? lines : [''];
}

/** Line height by script: Nastaliq's letters reach far above and below the line. */
const lineHeight = (layout: ReceiptLayout, size: number) => size * (layout.rtl ? 2.1 : 1.5);

interface Box {
  x: number;
  width: number;
  align: 'start' | 'end' | 'centre';
  size: number;
  bold?: boolean;
  colour?: string;
}

/** Draws `text` wrapped in the box from `y`, answers the height used. */
function drawText(doc: Doc, layout: ReceiptLayout, text: string, y: number, box: Box): number {
  const height = lineHeight(layout, box.size);
  const lines = wrap(doc, text, box.width, box.size, layout, box.bold ?? false);
  lines.forEach((line, index) => {
    const runs = visualRuns(line, layout.language, layout.rtl, box.bold ?? false);
    const width = widthOf(doc, runs, box.size);
    const toRight = (box.align === 'end') !== layout.rtl;
    let x = box.align === 'centre' ? box.x + (box.width - width) / 2 : toRight ? box.x + box.width - width : box.x;
    for (const run of runs) {
      doc
        .font(run.font)
        .fontSize(box.size)
        .fillColor(box.colour ?? COLOURS.text);
      // Each font's own ascent sets where its baseline falls: align the runs on one baseline instead.
      const baseline = y + index * height + box.size * (layout.rtl ? 1.35 : 1.05);
      doc.text(run.text, x, baseline, { lineBreak: false, baseline: 'alphabetic' });
      x += doc.widthOfString(run.text);
    }
  });
  return lines.length * height;
}

export interface ReceiptLogo {
  bytes: Buffer;
  contentType: string;
}

/** The PDF of a laid-out receipt. The logo is drawn when pdfkit can (PNG, JPEG; a WebP logo is left out). */
export async function renderReceiptPdf(layout: ReceiptLayout, logo?: ReceiptLogo): Promise<Buffer> {
  // Loaded with the first receipt: most processes never draw one, and pdfkit is the heaviest import.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: PAGE.size,
    margin: PAGE.margin,
    info: { Title: layout.title, Producer: 'TuitionDesk', Creator: 'TuitionDesk' },
    lang: layout.language,
    displayTitle: true,
  });
  registerFonts(doc);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = PAGE.margin;
  const width = doc.page.width - 2 * PAGE.margin;
  let y = PAGE.margin;
  if (logo && (logo.contentType === 'image/png' || logo.contentType === 'image/jpeg')) {
    try {
      doc.image(logo.bytes, left + (width - 48) / 2, y, { fit: [48, 48], align: 'center' });
      y += 54;
    } catch {
      // A picture pdfkit cannot read is left out rather than failing the receipt.
    }
  }
  const labelWidth = width * 0.42;
  for (const line of layout.lines) {
    // A long tax invoice (Urdu's tall lines, an address over two lines) goes on to a second page.
    if (y > doc.page.height - PAGE.margin - (line.kind === 'signature' ? 80 : 24)) {
      doc.addPage();
      y = PAGE.margin;
    }
    switch (line.kind) {
      case 'centre':
        y += drawText(doc, layout, line.text, y, { x: left, width, align: 'centre', size: 15, bold: true });
        break;
      case 'note':
        y += drawText(doc, layout, line.text, y, { x: left, width, align: 'centre', size: 8, colour: COLOURS.muted });
        break;
      case 'title':
        y += 4;
        y += drawText(doc, layout, line.text, y, { x: left, width, align: 'centre', size: 13, bold: true });
        doc
          .moveTo(left, y + 2)
          .lineTo(left + width, y + 2)
          .strokeColor(COLOURS.rule)
          .lineWidth(0.5)
          .stroke();
        y += 8;
        break;
      case 'reversed':
        y += drawText(doc, layout, line.text, y, {
          x: left,
          width,
          align: 'centre',
          size: 10,
          bold: true,
          colour: COLOURS.reversed,
        });
        y += 4;
        break;
      case 'section':
        y += 6;
        y += drawText(doc, layout, line.text, y, { x: left, width, align: 'start', size: 9, colour: COLOURS.muted });
        break;
      case 'row': {
        const labelX = layout.rtl ? left + width - labelWidth : left;
        const valueX = layout.rtl ? left : left + labelWidth + 8;
        const size = line.strong ? 11 : 9.5;
        const used = Math.max(
          drawText(doc, layout, line.label, y, {
            x: labelX,
            width: labelWidth,
            align: 'start',
            size: 9,
            colour: COLOURS.muted,
          }),
          drawText(doc, layout, line.value, y, {
            x: valueX,
            width: width - labelWidth - 8,
            align: 'start',
            size,
            bold: line.strong ?? false,
          }),
        );
        y += used;
        break;
      }
      case 'signature':
        // Room above the signatory's line for a hand signature or the centre's stamp.
        y += 10 + drawText(doc, layout, line.text, y + 10, { x: left, width, align: 'end', size: 9.5, bold: true });
        y += 28;
        y += drawText(doc, layout, line.signatory, y, { x: left, width, align: 'end', size: 9, colour: COLOURS.muted });
        break;
    }
  }
  doc.end();
  return done;
}
