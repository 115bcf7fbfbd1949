import * as XLSX from '@e965/xlsx';
import { beforeAll, describe, expect, it } from 'vitest';
import { today } from '../src/lib/time';
import { descriptionIn } from '../src/modules/fees/export-texts';
import { tableCsv } from '../src/modules/fees/exports';
import { testClientForBlock } from './helpers/client';
import { day, feeFamily, pay, postCharge } from './helpers/fees-ledger';
import { detailOf } from './helpers/test-app';

/**
 * The accountant's exports (issue 29): dues, collections and a family's statement as CSV and Excel.
 * Each file is checked against the report it exports, and for what a spreadsheet would do with it:
 * money as numbers, dates as ISO, and no text ever run as a formula. This file's database holds only
 * what its tests post (PGlite, or PostgreSQL when TEST_DATABASE_URL is set).
 */
const api = testClientForBlock();
const admin = () => api().as('admin');

const EVIL_NAME = '=HYPERLINK("http://evil")';
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The fields of a CSV made of quoted fields only (as these exports are), line by line. */
function parseCsv(body: string): string[][] {
  expect(body.startsWith('\uFEFF')).toBe(true);
  expect(body.endsWith('\r\n')).toBe(true);
  const lines = body.slice(1, -2).split('\r\n');
  return lines.map((line) => {
    const fields = [...line.matchAll(/"((?:[^"]|"")*)"(,|$)/g)].map((match) => (match[1] ?? '').replaceAll('""', '"'));
    // Every character of the line is inside a quoted field: nothing was written bare.
    expect(fields.map((field) => `"${field.replaceAll('"', '""')}"`).join(',')).toBe(line);
    return fields;
  });
}

async function download(url: string) {
  const response = await admin().get(url);
  expect(response.statusCode, response.body).toBe(200);
  return response;
}

async function csvOf(url: string) {
  const response = await download(url);
  expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
  return { rows: parseCsv(response.body), disposition: String(response.headers['content-disposition']) };
}

async function sheetOf(url: string) {
  const response = await download(url);
  expect(response.headers['content-type']).toBe(XLSX_TYPE);
  const book = XLSX.read(response.rawPayload, { type: 'buffer', cellNF: true, cellFormula: true });
  const sheet = book.Sheets[book.SheetNames[0] ?? ''];
  if (!sheet) throw new Error('no sheet');
  return { sheet, name: book.SheetNames[0], disposition: String(response.headers['content-disposition']) };
}

/** The cell at a row and column (both from 0). */
const cellAt = (sheet: XLSX.WorkSheet, r: number, c: number) =>
  sheet[XLSX.utils.encode_cell({ r, c })] as XLSX.CellObject | undefined;

interface Due {
  family_id: number;
  parent_name: string;
  parent_phone: string;
  balance_paise: number;
  oldest_due_date: string;
  days_overdue: number;
}

let evil: Awaited<ReturnType<typeof feeFamily>>;
let plain: Awaited<ReturnType<typeof feeFamily>>;

describe('the fees exports', () => {
  beforeAll(async () => {
    evil = await feeFamily(api(), 2, EVIL_NAME);
    plain = await feeFamily(api(), 1, 'Meera Iyer');
    await postCharge(api().db, evil.familyId, evil.children[0] ?? null, 125_050, day(-40));
    await postCharge(api().db, evil.familyId, evil.children[1] ?? null, 80_000, day(-10));
    await postCharge(api().db, plain.familyId, plain.children[0] ?? null, 150_000, day(-5));
    await pay(api(), evil.familyId, 25_050, { mode: 'upi', reference: '412345678901' });
    await pay(api(), plain.familyId, 50_000);
  });

  it('exports the dues as CSV: the rows of /fees/dues in its order, rupees with 2 decimals, and the total', async () => {
    const dues = (await admin().get('/api/v1/fees/dues')).json() as Due[];
    const { rows, disposition } = await csvOf('/api/v1/fees/dues/export?format=csv');
    expect(disposition).toBe(`attachment; filename="fees-dues-${today()}.csv"`);
    expect(rows[0]?.join(' | ')).toBe(
      'Family id | Parent | Phone | Children (class) | Balance (₹) | Oldest due date | Days overdue',
    );
    const body = rows.slice(1, -1);
    expect(body.map((row) => Number(row[0]))).toEqual(dues.map((due) => due.family_id));
    expect(body.map((row) => row[4])).toEqual(['1800.00', '1000.00']);
    expect(body.map((row) => row[5])).toEqual(dues.map((due) => due.oldest_due_date));
    expect(body.map((row) => Number(row[6]))).toEqual(dues.map((due) => due.days_overdue));
    const total = dues.reduce((sum, due) => sum + due.balance_paise, 0);
    expect(total).toBe(280_000);
    expect(rows.at(-1)).toEqual(['Total', '', '', '2 families', '2800.00', '', '']);
    // Formula text behind a quote: a spreadsheet shows '=HYPERLINK("http://evil") as text, never a link,
    // and the phone as '+9198… (quote and all), readable, not a sum.
    expect(body[0]?.[1]).toBe(`'${EVIL_NAME}`);
    expect(body[0]?.[2]).toBe(`'${evil.phone}`);
    expect(body[1]?.[1]).toBe('Meera Iyer');
    expect(body[0]?.[3]).toContain(`Child 1 ${evil.phone.slice(-4)}`);
  });

  it('exports the dues as Excel: money as numbers shown with 2 decimals, dates ISO, names as string cells, no formula', async () => {
    const { sheet, name, disposition } = await sheetOf('/api/v1/fees/dues/export?format=xlsx');
    expect(name).toBe('Dues');
    expect(disposition).toBe(`attachment; filename="fees-dues-${today()}.xlsx"`);
    expect(cellAt(sheet, 0, 4)?.v).toBe('Balance (₹)');
    const balance = cellAt(sheet, 1, 4);
    expect(balance).toMatchObject({ t: 'n', v: 1800, z: '#,##0.00' });
    expect(cellAt(sheet, 2, 4)).toMatchObject({ t: 'n', v: 1000 });
    expect(cellAt(sheet, 3, 4)).toMatchObject({ t: 'n', v: 2800 });
    expect(cellAt(sheet, 1, 5)).toMatchObject({ t: 'n', w: day(-40) });
    // The name is a string cell holding exactly what was written; Excel shows it as text and runs nothing.
    const parent = cellAt(sheet, 1, 1);
    expect(parent).toMatchObject({ t: 's', v: EVIL_NAME });
    expect(parent?.f).toBeUndefined();
    expect(cellAt(sheet, 1, 2)).toMatchObject({ t: 's', v: evil.phone });
    const formulas = Object.keys(sheet).filter((key) => !key.startsWith('!') && (sheet[key] as XLSX.CellObject).f);
    expect(formulas).toEqual([]);
  });

  it("exports a family's statement, CSV and Excel, agreeing with its statement; the reason of a reversal stays text", async () => {
    const payment = await pay(api(), plain.familyId, 20_000, { mode: 'cheque', reference: '012345' });
    const reversed = await admin().post(`/api/v1/fees/payments/${payment.payment_id}/reverse`, {
      reason: '＝1+1 @SUM(A1) bounced',
    });
    expect(reversed.statusCode, reversed.body).toBe(200);
    const statement = (await admin().get(`/api/v1/fees/families/${plain.familyId}/statement`)).json() as {
      balance_paise: number;
      entries: { date: string; kind: string; debit_paise: number; credit_paise: number; balance_paise: number }[];
    };
    expect(statement.balance_paise).toBe(100_000);

    const { rows, disposition } = await csvOf(`/api/v1/fees/families/${plain.familyId}/statement/export`);
    expect(disposition).toBe(`attachment; filename="fees-statement-family-${plain.familyId}-${today()}.csv"`);
    expect(rows[0]?.join(' | ')).toBe('Date | Kind | Description | Child | Debit (₹) | Credit (₹) | Balance (₹)');
    const body = rows.slice(1, -1);
    expect(body.map((row) => [row[0], row[1], row[6]])).toEqual(
      statement.entries.map((entry) => [
        entry.date,
        entry.kind.replaceAll('_', ' '),
        (entry.balance_paise / 100).toFixed(2),
      ]),
    );
    expect(body.map((row) => [row[4], row[5]])).toEqual([
      ['1500.00', ''],
      ['', '500.00'],
      ['', '200.00'],
      ['200.00', ''],
    ]);
    expect(body[3]?.[2]).toBe("'＝1+1 @SUM(A1) bounced");
    expect(body[0]?.[3]).toBe(`Child 1 ${plain.phone.slice(-4)}`);
    expect(rows.at(-1)).toEqual(['', 'Total', `Meera Iyer (${plain.phone})`, '', '1700.00', '700.00', '1000.00']);

    const { sheet, name } = await sheetOf(`/api/v1/fees/families/${plain.familyId}/statement/export?format=xlsx`);
    expect(name).toBe('Statement');
    expect(cellAt(sheet, 1, 0)).toMatchObject({ t: 'n', w: statement.entries[0]?.date });
    expect(cellAt(sheet, 1, 4)).toMatchObject({ t: 'n', v: 1500, z: '#,##0.00' });
    expect(cellAt(sheet, 1, 5)).toBeUndefined();
    expect(cellAt(sheet, 4, 2)).toMatchObject({ t: 's', v: '＝1+1 @SUM(A1) bounced' });
    expect(cellAt(sheet, 5, 6)).toMatchObject({ t: 'n', v: 1000 });
  });

  it('exports collections for a period: each payment and reversal, and the total /fees/collections answers', async () => {
    const from = day(-1);
    const to = today();
    const collections = (await admin().get(`/api/v1/fees/collections?from=${from}&to=${to}`)).json() as {
      amount_paise: number;
      payments: number;
      reversals: number;
    };
    const { rows, disposition } = await csvOf(`/api/v1/fees/collections/export?from=${from}&to=${to}&format=csv`);
    expect(disposition).toBe(`attachment; filename="fees-collections-${from}-to-${to}.csv"`);
    expect(rows[0]?.join(' | ')).toBe(
      'Date | Receipt | Movement | Family id | Parent | Phone | Mode | Reference | Staff | Amount (₹) | Note',
    );
    const body = rows.slice(1, -1);
    expect(body.map((row) => [row[2], row[6], row[9]])).toEqual([
      ['payment', 'UPI', '250.50'],
      ['payment', 'cash', '500.00'],
      ['payment', 'cheque', '200.00'],
      ['reversal', 'cheque', '-200.00'],
    ]);
    expect(body[0]?.[4]).toBe(`'${EVIL_NAME}`);
    // A UPI reference keeps its 12 digits: behind a quote Excel shows '412345678901, not 4.12346E+11;
    // a cheque number keeps its leading zeros.
    expect(body[0]?.[7]).toBe("'412345678901");
    expect(body[2]?.[7]).toBe("'012345");
    expect(body[0]?.[1]).toMatch(/^R\/\d{4}-\d{2}\/\d{6}$/);
    expect(body[3]?.[10]).toBe("'＝1+1 @SUM(A1) bounced");
    const sum = body.reduce((total, row) => total + Math.round(Number(row[9]) * 100), 0);
    expect(sum).toBe(collections.amount_paise);
    expect(rows.at(-1)?.[9]).toBe('750.50');
    expect([collections.payments, collections.reversals]).toEqual([3, 1]);
    expect(rows.at(-1)?.[2]).toBe('3 payments, 1 reversal');

    const { sheet } = await sheetOf(`/api/v1/fees/collections/export?period=today&format=xlsx`);
    expect(cellAt(sheet, 4, 9)).toMatchObject({ t: 'n', v: -200, w: '-200.00' });
    expect(cellAt(sheet, 5, 9)).toMatchObject({ t: 'n', v: 750.5 });
    expect(cellAt(sheet, 1, 7)).toMatchObject({ t: 's', v: '412345678901' });
    expect(cellAt(sheet, 3, 7)).toMatchObject({ t: 's', v: '012345' });
  });

  it("writes in the staff member's language when asked (ADR 066): headers, sheet, modes, kinds and totals; data as typed, still safe", async () => {
    const english = await download('/api/v1/fees/dues/export');
    expect((await download('/api/v1/fees/dues/export?format=csv&lang=en')).body).toBe(english.body);
    expect(parseCsv(english.body)[0]?.[0]).toBe('Family id');

    const hindiDues = await csvOf('/api/v1/fees/dues/export?format=csv&lang=hi');
    expect(hindiDues.disposition).toBe(`attachment; filename="fees-dues-${today()}.csv"`);
    expect(hindiDues.rows[0]?.join(' | ')).toBe(
      'परिवार आईडी | अभिभावक | फ़ोन | बच्चे (कक्षा) | शेष (₹) | सबसे पुरानी देय तिथि | देरी (दिन)',
    );
    expect(hindiDues.rows.slice(1, -1).map((row) => row[4])).toEqual(['1800.00', '1000.00']);
    expect(hindiDues.rows[1]?.[1]).toBe(`'${EVIL_NAME}`);
    expect(hindiDues.rows.at(-1)).toEqual(['कुल', '', '', '2 परिवार', '2800.00', '', '']);

    const from = day(-1);
    const hindiCollections = await csvOf(`/api/v1/fees/collections/export?from=${from}&to=${today()}&lang=hi`);
    expect(hindiCollections.disposition).toBe(`attachment; filename="fees-collections-${from}-to-${today()}.csv"`);
    expect(hindiCollections.rows[0]?.[6]).toBe('माध्यम');
    expect(hindiCollections.rows.slice(1, -1).map((row) => [row[2], row[6], row[9], row[10]])).toEqual([
      ['भुगतान', 'UPI', '250.50', ''],
      ['भुगतान', 'नकद', '500.00', ''],
      ['भुगतान', 'चेक', '200.00', ''],
      ['वापसी', 'चेक', '-200.00', "'＝1+1 @SUM(A1) bounced"],
    ]);
    expect(hindiCollections.rows.at(-1)?.slice(1, 3)).toEqual(['कुल', '3 भुगतान, 1 वापसी']);

    const hindiStatement = await csvOf(`/api/v1/fees/families/${plain.familyId}/statement/export?lang=hi`);
    expect(hindiStatement.rows[0]?.join(' | ')).toBe('तिथि | प्रविष्टि | विवरण | बच्चा | डेबिट (₹) | क्रेडिट (₹) | शेष (₹)');
    expect(hindiStatement.rows.slice(1, -1).map((row) => [row[1], row[2]])).toEqual([
      ['शुल्क', 'Tuition'],
      ['भुगतान', 'भुगतान प्राप्त हुआ'],
      ['भुगतान', 'भुगतान प्राप्त हुआ'],
      ['वापसी', "'＝1+1 @SUM(A1) bounced"],
    ]);

    const urdu = await sheetOf('/api/v1/fees/dues/export?format=xlsx&lang=ur');
    expect(urdu.name).toBe('واجبات');
    expect(urdu.disposition).toBe(`attachment; filename="fees-dues-${today()}.xlsx"`);
    expect([0, 1, 2, 3, 4].map((c) => cellAt(urdu.sheet, 0, c)?.v)).toEqual([
      'خاندان آئی ڈی',
      'سرپرست',
      'فون',
      'بچے (جماعت)',
      'بقایا (₹)',
    ]);
    expect(cellAt(urdu.sheet, 1, 4)).toMatchObject({ t: 'n', v: 1800, z: '#,##0.00' });
    expect(cellAt(urdu.sheet, 1, 1)).toMatchObject({ t: 's', v: EVIL_NAME });
    const urduCollections = await sheetOf('/api/v1/fees/collections/export?period=today&format=xlsx&lang=ur');
    expect(urduCollections.name).toBe('وصولی');
    expect(cellAt(urduCollections.sheet, 0, 6)?.v).toBe('طریقہ');
    expect([1, 2, 3, 4].map((r) => cellAt(urduCollections.sheet, r, 6)?.v)).toEqual(['UPI', 'نقد', 'چیک', 'چیک']);
    expect(cellAt(urduCollections.sheet, 1, 1)?.v).toMatch(/^R\/\d{4}-\d{2}\/\d{6}$/);
  });

  it("says the ledger's own descriptions in the language, the plan's name as typed, and guards them as any text", () => {
    // The shapes the charge run and the counter write (fees-charges.test.ts holds the writers to them).
    expect(descriptionIn('hi', 'discount', 'Maths, 2026-10: sibling discount')).toBe('Maths, 2026-10: भाई-बहन छूट');
    expect(descriptionIn('hi', 'late_fee', 'Fee, part-2: late fee')).toBe('Fee, किस्त 2: विलंब शुल्क');
    expect(descriptionIn('ur', 'correction', 'A, B, package 3: correction')).toBe('A, B، پیکج 3: تصحیح');
    expect(descriptionIn('ta', 'charge', 'Admission, once')).toBe('Admission, ஒருமுறை');
    expect(descriptionIn('mr', 'payment', 'Payment received')).toBe('भरणा मिळाला');
    expect(descriptionIn('hi', 'reversal', 'Cheque bounced')).toBe('Cheque bounced');
    expect(descriptionIn('en', 'late_fee', 'Fee, part-2: late fee')).toBe('Fee, part-2: late fee');
    const translated = descriptionIn('hi', 'discount', '=cmd|calc, 2026-10: staff child discount');
    const csv = tableCsv({ title: 'x', header: ['विवरण'], rows: [[{ kind: 'text', value: translated }]] });
    expect(parseCsv(csv)[1]).toEqual(["'=cmd|calc, 2026-10: स्टाफ़ के बच्चे की छूट"]);
  });

  it('refuses a bad format, bad dates and an unknown family, with a detail, and teachers', async () => {
    const badFormat = await admin().get('/api/v1/fees/dues/export?format=pdf');
    expect(badFormat.statusCode).toBe(422);
    expect(detailOf(badFormat)).toContain('csv or xlsx');
    const backwards = await admin().get(`/api/v1/fees/collections/export?from=${today()}&to=${day(-3)}`);
    expect(backwards.statusCode).toBe(422);
    expect(detailOf(backwards)).toContain('to');
    const notADate = await admin().get('/api/v1/fees/collections/export?from=2026-02-30&format=xlsx');
    expect(notADate.statusCode).toBe(422);
    const unknown = await admin().get('/api/v1/fees/families/999999/statement/export?format=csv');
    expect(unknown.statusCode).toBe(404);
    const notAnId = await admin().get('/api/v1/fees/families/abc/statement/export');
    expect(notAnId.statusCode).toBe(422);
    // An unknown language, with everything else right, names the six the exports speak.
    for (const url of [
      '/api/v1/fees/dues/export?format=csv&lang=xx',
      `/api/v1/fees/collections/export?period=today&format=xlsx&lang=xx`,
      `/api/v1/fees/families/${plain.familyId}/statement/export?lang=xx`,
    ]) {
      const badLanguage = await admin().get(url);
      expect(badLanguage.statusCode, url).toBe(422);
      expect(detailOf(badLanguage), url).toBe('lang: must be one of en, hi, mr, ta, bn, ur');
      expect(badLanguage.headers['content-disposition']).toBeUndefined();
    }

    const teacher = api().as('teacher');
    for (const url of [
      '/api/v1/fees/dues/export?format=csv',
      '/api/v1/fees/collections/export?period=today&format=xlsx',
      `/api/v1/fees/families/${plain.familyId}/statement/export`,
    ]) {
      const refused = await teacher.get(url);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.headers['content-disposition']).toBeUndefined();
    }
  });
});
