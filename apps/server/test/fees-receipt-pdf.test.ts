import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { familyDate } from '../src/modules/families';
import { layoutReceipt, type ReceiptLine, visualRuns } from '../src/modules/fees/receipt-pdf';
import { type Caller, type TestClient, testClient } from './helpers/client';
import { feeFamily, pay } from './helpers/fees-ledger';

/**
 * Receipt PDFs (ADR 057): `Accept: application/pdf` answers the PDF, in the family's language or
 * `?lang=`; what the page says is checked on the layout's lines (the PDF's text is glyph ids), the PDF
 * on its bytes and the fonts it embeds.
 */
let api: TestClient;
let admin: Caller;
beforeAll(async () => {
  api = await testClient();
  admin = api.as('admin');
});
afterAll(async () => {
  await api?.close();
});

const PDF = { headers: { accept: 'application/pdf' } };
const LANGUAGES = ['en', 'hi', 'mr', 'ta', 'bn', 'ur'] as const;
/** The font each language's own script is set in, by the name the PDF embeds it under. */
const SCRIPT_FONT = {
  hi: 'NotoSansDevanagari',
  mr: 'NotoSansDevanagari',
  ta: 'NotoSansTamil',
  bn: 'NotoSansBengali',
  ur: 'NotoNastaliqUrdu',
} as const;

/** The fonts a PDF embeds (their BaseFont names, subset prefix dropped). */
function embeddedFonts(pdf: Buffer): string[] {
  const names = [...pdf.toString('latin1').matchAll(/\/BaseFont \/[A-Z]{6}\+([A-Za-z0-9-]+)/g)].map((m) => m[1]);
  return [...new Set(names)].sort() as string[];
}

async function receiptJson(paymentId: number) {
  const response = await admin.get(`/api/v1/fees/receipts/${paymentId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const texts = (lines: ReceiptLine[]) =>
  lines.map((line) => ('label' in line ? `${line.label}: ${line.value}` : line.text));

describe('a receipt as a PDF', () => {
  it('answers a PDF attachment named after the receipt number; JSON stays the default', async () => {
    const family = await feeFamily(api, 1);
    const paid = await pay(api, family.familyId, 125_000);
    const json = await admin.get(`/api/v1/fees/receipts/${paid.payment_id}`);
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(json.json()).toMatchObject({ receipt_number: paid.receipt_number, document: 'receipt', tax: null });

    const started = performance.now();
    const response = await admin.get(`/api/v1/fees/receipts/${paid.payment_id}`, PDF);
    const took = Math.round(performance.now() - started);
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="${paid.receipt_number.replaceAll('/', '-')}.pdf"`,
    );
    const pdf = response.rawPayload;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.subarray(-6).toString('latin1')).toMatch(/%%EOF\s*$/);
    // English: Noto Sans, and Devanagari's font only for ₹ (the Latin file has no ₹); no other script's font.
    expect(embeddedFonts(pdf)).toEqual(['NotoSans-Bold', 'NotoSans-Regular', 'NotoSansDevanagari-Regular']);
    console.info(`receipt PDF (English) in ${took} ms, ${pdf.length} bytes`);
  });

  it('renders in each of the six languages, embedding that script’s font; another language is 422', async () => {
    const family = await feeFamily(api, 2);
    const paid = await pay(api, family.familyId, 99_900);
    await api
      .as('admin')
      .post(`/api/v1/fees/payments/${paid.payment_id}/reverse`, { reason: 'Cheque bounced' })
      .then((response) => expect(response.statusCode, response.body).toBe(200));
    for (const language of LANGUAGES) {
      const started = performance.now();
      const response = await admin.get(`/api/v1/fees/receipts/${paid.payment_id}?lang=${language}`, PDF);
      expect(response.statusCode, `${language}: ${response.body.slice(0, 200)}`).toBe(200);
      expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const fonts = embeddedFonts(response.rawPayload);
      if (language !== 'en') expect(fonts.join(' '), language).toContain(SCRIPT_FONT[language]);
      for (const [other, font] of Object.entries(SCRIPT_FONT)) {
        if (
          font !== SCRIPT_FONT[language as keyof typeof SCRIPT_FONT] &&
          other !== 'en' &&
          font !== 'NotoSansDevanagari'
        )
          expect(fonts.join(' '), `${language} embeds ${font}`).not.toContain(font);
      }
      console.info(`receipt PDF (${language}) in ${Math.round(performance.now() - started)} ms`);
    }
    for (const bad of ['fr', 'EN', '']) {
      const response = await admin.get(`/api/v1/fees/receipts/${paid.payment_id}?lang=${bad}`, PDF);
      expect(response.statusCode, bad).toBe(422);
      expect(response.json().detail).toContain('lang');
    }
  });

  it("is in the family's own language unless asked otherwise", async () => {
    const family = await feeFamily(api, 1);
    await api.db.query("UPDATE students SET parent_language = 'ta' WHERE parent_phone = $1", [family.phone]);
    const paid = await pay(api, family.familyId, 10_000);
    const own = await admin.get(`/api/v1/fees/receipts/${paid.payment_id}`, PDF);
    expect(embeddedFonts(own.rawPayload).join(' ')).toContain('NotoSansTamil');
    const english = await admin.get(`/api/v1/fees/receipts/${paid.payment_id}?lang=en`, PDF);
    expect(embeddedFonts(english.rawPayload).join(' ')).not.toContain('NotoSansTamil');
  });

  it('carries the centre’s logo when it has one', async () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    const family = await feeFamily(api, 1);
    const paid = await pay(api, family.familyId, 10_000);
    const before = await admin.get(`/api/v1/fees/receipts/${paid.payment_id}`, PDF);
    expect(before.rawPayload.toString('latin1')).not.toContain('/Subtype /Image');
    const logo = await admin.put('/api/v1/settings/centre/logo', { image_base64: png });
    expect(logo.statusCode, logo.body).toBe(200);
    try {
      const after = await admin.get(`/api/v1/fees/receipts/${paid.payment_id}`, PDF);
      expect(after.rawPayload.toString('latin1')).toContain('/Subtype /Image');
    } finally {
      await admin.request('DELETE', '/api/v1/settings/centre/logo');
    }
  });

  it('renders a reason of 200 characters with no space, in English and Urdu', async () => {
    const family = await feeFamily(api, 1);
    const paid = await pay(api, family.familyId, 10_000);
    const reason = 'x'.repeat(200);
    const reversed = await admin.post(`/api/v1/fees/payments/${paid.payment_id}/reverse`, { reason });
    expect(reversed.statusCode, reversed.body).toBe(200);
    for (const language of ['en', 'ur']) {
      const response = await admin.get(`/api/v1/fees/receipts/${paid.payment_id}?lang=${language}`, PDF);
      expect(response.statusCode, language).toBe(200);
      expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    }
  });

  it('is 404 for an unknown payment and 403 for a teacher, as the JSON is', async () => {
    expect((await admin.get('/api/v1/fees/receipts/999999', PDF)).statusCode).toBe(404);
    expect((await admin.get('/api/v1/fees/receipts/999999')).statusCode).toBe(404);
    const family = await feeFamily(api, 1);
    const paid = await pay(api, family.familyId, 10_000);
    expect((await api.as('teacher').get(`/api/v1/fees/receipts/${paid.payment_id}`, PDF)).statusCode).toBe(403);
    expect((await api.as('teacher').get(`/api/v1/fees/receipts/${paid.payment_id}`)).statusCode).toBe(403);
  });
});

describe('what a receipt page says', () => {
  it('has the receipt number, date, payer, amount in figures and (English) in words, mode, reference and what it paid', async () => {
    const family = await feeFamily(api, 1, 'Meera Iyer');
    const paid = await pay(api, family.familyId, 125_050, { mode: 'upi', reference: '412345678901' });
    const receipt = await receiptJson(paid.payment_id);
    const lines = texts(layoutReceipt(receipt, 'en', familyDate).lines);
    expect(lines).toContain(`Receipt number: ${paid.receipt_number}`);
    expect(lines).toContain('Amount: ₹1,250.50');
    expect(lines).toContain('In words: Rupees one thousand two hundred and fifty and paise fifty only');
    expect(lines).toContain('Paid by: UPI');
    expect(lines).toContain('Reference: 412345678901');
    expect(lines).toContain(`Received from: Meera Iyer, ${family.phone}`);
    expect(lines).toContain('Advance (for later fees): ₹1,250.50');
    expect(lines.some((line) => line.startsWith('Date: '))).toBe(true);
    expect(lines).not.toContain('Tax invoice');
    expect(lines.join('\n')).not.toMatch(/CGST|REVERSED/);

    const hindi = texts(layoutReceipt(receipt, 'hi', familyDate).lines);
    expect(hindi).toContain(`रसीद संख्या: ${paid.receipt_number}`);
    expect(hindi).toContain('राशि: ₹1,250.50');
    expect(hindi.join('\n')).not.toContain('Rupees');
  });

  it('says REVERSED with the date and reason once reversed', async () => {
    const family = await feeFamily(api, 1);
    const paid = await pay(api, family.familyId, 10_000);
    const reversed = await admin.post(`/api/v1/fees/payments/${paid.payment_id}/reverse`, { reason: 'Entered twice' });
    expect(reversed.statusCode, reversed.body).toBe(200);
    const receipt = await receiptJson(paid.payment_id);
    const [line] = layoutReceipt(receipt, 'en', familyDate).lines.filter((l) => l.kind === 'reversed');
    expect(line).toEqual({
      kind: 'reversed',
      text: `REVERSED on ${familyDate(receipt.reversed_on, 'en')}: Entered twice`,
    });
  });

  it('is a tax invoice with the taxable value, CGST and SGST for a registered centre', async () => {
    const set = await admin.put('/api/v1/fees/gst', {
      registered: true,
      gstin: '27AAPFU0939F1ZV',
      address: '14 MG Road, Pune 411001',
    });
    expect(set.statusCode, set.body).toBe(200);
    try {
      const family = await feeFamily(api, 1);
      const paid = await pay(api, family.familyId, 118_000);
      const layout = layoutReceipt(await receiptJson(paid.payment_id), 'en', familyDate);
      const lines = texts(layout.lines);
      expect(layout.title).toBe('Tax invoice');
      expect(lines).toEqual(
        expect.arrayContaining([
          'GSTIN: 27AAPFU0939F1ZV',
          'SAC 999293',
          'Place of supply: 27 Maharashtra',
          'Taxable value: ₹1,000.00',
          'CGST 9%: ₹90.00',
          'SGST 9%: ₹90.00',
          'Total (GST included): ₹1,180.00',
          // What Rule 46 adds (ADR 065): the centre's address, whom it is billed to, reverse charge.
          '14 MG Road, Pune 411001',
          'Billed to: Meera Iyer',
          'Reverse charge: No',
        ]),
      );
      expect(layout.lines.at(-1)).toEqual({
        kind: 'signature',
        text: `For ${(await receiptJson(paid.payment_id)).centre_name}`,
        signatory: 'Authorised signatory',
      });
      const pdf = await admin.get(`/api/v1/fees/receipts/${paid.payment_id}?lang=ur`, PDF);
      expect(pdf.statusCode).toBe(200);
    } finally {
      await admin.put('/api/v1/fees/gst', { registered: false, gstin: null });
    }
  });
});

describe('an Urdu line, right to left', () => {
  const drawn = (text: string) => visualRuns(text, 'ur', true).map((run) => `${run.font}:${run.text}`);

  it('puts the first word at the right and keeps a number left to right beside it', () => {
    // Logical: "amount: ₹1,250.00". Drawn left to right: the number (₹ from the Devanagari font), then ":", then the word.
    expect(drawn('رقم: ₹1,250.00')).toEqual(['devanagari:₹', 'latin:1,250.00', 'latin: :', 'arabic:رقم']);
  });

  it('reverses the words of an Urdu run and mirrors brackets', () => {
    expect(drawn('ادا کنندہ')).toEqual(['arabic:کنندہ', 'arabic: ', 'arabic:ادا']);
    // Read right to left: کل (GST سمیت).
    expect(drawn('کل (GST سمیت)')).toEqual([
      'latin:(',
      'arabic:سمیت',
      'latin: ',
      'latin:GST',
      'latin:)',
      'arabic: ',
      'arabic:کل',
    ]);
  });

  it('keeps a sign with its number', () => {
    expect(drawn('بقایا -₹250.00').slice(0, 3)).toEqual(['latin:-', 'devanagari:₹', 'latin:250.00']);
  });
});
