/**
 * Spreadsheets made to hurt: a million rows, formulas and hyperlinks where names should be, files
 * that only pretend to be workbooks. Each is refused with a detail that says what to do, or imported
 * as the text a person sees in Excel; none takes the server past its time or memory bounds. (Zip
 * bombs, damaged zips and the other refusals are in imports.test.ts.)
 */
import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, testClient } from './helpers/client';
import { detailOf } from './helpers/test-app';
import { rebuildWorkbook, workbook } from './helpers/workbooks';

let api: TestClient;
beforeAll(async () => {
  api = await testClient();
});
afterAll(async () => {
  await api.close();
});

const HEADER = ['First Name', 'Last Name', 'Class', 'Parent Mobile', 'Parent Name'];

function upload(file: Buffer, filename = 'students.xlsx') {
  return api.as('admin').upload('/api/v1/import/students/import', [{ field: 'file', filename, content: file }]);
}

async function studentCount(): Promise<number> {
  const rows = await api.db.query<{ count: number }>('SELECT count(*)::int AS count FROM students');
  return rows[0]?.count ?? 0;
}

/** A sheet of `rows` rows written straight as XML (SheetJS would need gigabytes to build it). */
function sheetXml(rows: number): Buffer {
  const parts: string[] = [
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
    '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>',
    '<row r="1"><c r="A1" t="inlineStr"><is><t>First Name</t></is></c><c r="B1" t="inlineStr"><is><t>Last Name</t></is></c>',
    '<c r="C1" t="inlineStr"><is><t>Class</t></is></c><c r="D1" t="inlineStr"><is><t>Parent Mobile</t></is></c></row>',
  ];
  for (let row = 2; row <= rows + 1; row += 1) parts.push(`<row r="${row}"><c r="C${row}"><v>7</v></c></row>`);
  parts.push('</sheetData></worksheet>');
  return Buffer.from(parts.join(''));
}

describe('a workbook of a million rows', () => {
  it('is refused with a detail, within the time bound, and the server’s own memory stays put', async () => {
    const file = rebuildWorkbook(workbook([HEADER, ['A', 'B', '7', '+919800000001', 'P']]), (name) =>
      name === 'xl/worksheets/sheet1.xml' ? { content: sheetXml(1_000_000) } : {},
    );
    expect(file.length).toBeLessThan(5 * 1024 * 1024);
    const before = process.memoryUsage().heapUsed;
    const started = Date.now();
    const response = await upload(file);
    const seconds = (Date.now() - started) / 1000;
    expect([400, 413]).toContain(response.statusCode);
    expect(detailOf(response)).toMatch(/rows|too much memory|could not be read within|unpacks to more than/);
    expect(seconds).toBeLessThan(30);
    // The reader runs in a worker thread with its own heap: the server's heap is not where it grows.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(200 * 1024 * 1024);
    expect(await studentCount()).toBe(0);
    console.log(`a million rows: ${response.statusCode} "${detailOf(response)}" in ${seconds.toFixed(1)} s`);
  }, 60_000);
});

describe('formulas and hyperlinks in cells', () => {
  it('imports what the cell shows, never the formula or the link behind it', async () => {
    const sheet = XLSX.utils.aoa_to_sheet([HEADER]);
    const put = (address: string, cell: XLSX.CellObject) => {
      sheet[address] = cell;
    };
    // A name that is a formula, with the value Excel cached for it.
    put('A2', { t: 's', v: 'Asha', f: 'HYPERLINK("http://evil.example/","Asha")' });
    put('B2', { t: 's', v: 'Rao' });
    put('C2', { t: 'n', v: 7, f: '3+4' });
    put('D2', { t: 's', v: '+919800000101' });
    // A dangerous formula (DDE) whose cached text is harmless.
    put('A3', { t: 's', v: 'Ravi', f: "cmd|' /C calc'!A0" });
    put('B3', { t: 's', v: 'Kumar', l: { Target: 'http://evil.example/steal', Tooltip: 'click me' } });
    put('C3', { t: 's', v: '8' });
    put('D3', { t: 's', v: '+919800000102' });
    // A formula with no cached value shows nothing in Excel: the row lacks its first name.
    put('A4', { t: 's', f: 'CONCAT("Mal","ice")' } as XLSX.CellObject);
    put('B4', { t: 's', v: 'Formula' });
    put('C4', { t: 's', v: '9' });
    put('D4', { t: 's', v: '+919800000103' });
    sheet['!ref'] = 'A1:E4';
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, 'Data');
    const file = XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;

    const response = await upload(file);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ imported_count: 2, total_rows: 3 });
    expect(response.json().errors).toEqual([{ row: 4, error: 'First Name: is required' }]);
    const stored = await api.db.query<{ full_name: string; class_name: string }>(
      "SELECT full_name, class_name FROM students WHERE parent_phone LIKE '+9198000001%' ORDER BY parent_phone",
    );
    expect(stored).toEqual([
      { full_name: 'Asha Rao', class_name: '7' },
      { full_name: 'Ravi Kumar', class_name: '8' },
    ]);
    const texts = await api.db.query<{ t: string }>(
      "SELECT concat_ws(' ', full_name, parent_name) AS t FROM students WHERE full_name ~ '[=|(]|http'",
    );
    expect(texts).toEqual([]);
  });

  it('reads the same from a legacy .xls (BIFF8) with formulas', async () => {
    const sheet = XLSX.utils.aoa_to_sheet([HEADER]);
    sheet.A2 = { t: 's', v: 'Meera', f: 'UPPER("meera")' };
    sheet.B2 = { t: 's', v: 'Iyer' };
    sheet.C2 = { t: 'n', v: 10, f: '5*2' };
    sheet.D2 = { t: 's', v: '+919800000201' };
    sheet['!ref'] = 'A1:E2';
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, 'Data');
    const file = XLSX.write(book, { type: 'buffer', bookType: 'biff8' }) as Buffer;
    const response = await upload(file, 'legacy.xls');
    expect(response.statusCode).toBe(200);
    expect(response.json().imported_students).toEqual([
      expect.objectContaining({ name: 'Meera Iyer', class_name: '10', phone: '+919800000201' }),
    ]);
  });
});

describe('files that only pretend to be workbooks', () => {
  it.each([
    ['a .txt renamed .xlsx', Buffer.from('First Name\tLast Name\nAsha\tRao\n'), 'students.xlsx'],
    [
      'a .xls that is really an HTML table (what some school systems export)',
      Buffer.from(
        '<html><body><table><tr><td>First Name</td><td>Last Name</td></tr><tr><td>Asha</td><td><script>alert(1)</script></td></tr></table></body></html>',
      ),
      'export.xls',
    ],
    [
      'a .xls that is an XML spreadsheet 2003',
      Buffer.from(
        '<?xml version="1.0"?><Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet"><Worksheet ss:Name="S"><Table><Row><Cell><Data ss:Type="String">First Name</Data></Cell></Row></Table></Worksheet></Workbook>',
      ),
      'students.xls',
    ],
    ['a UTF-16 text file named .xls', Buffer.from('\ufeffFirst Name\tClass\n', 'utf16le'), 'students.xls'],
  ])('%s: 400 telling how to save it as a workbook, nothing imported', async (_name, file, filename) => {
    const before = await studentCount();
    const response = await upload(file, filename);
    expect(response.statusCode).toBe(400);
    expect(detailOf(response)).toBe(
      'The file is not an Excel workbook (.xlsx or .xls): it may be another kind of file (CSV, PDF, an image, a web page) saved with an Excel name. Open it in Excel and save it as an Excel Workbook',
    );
    expect(await studentCount()).toBe(before);
  });
});
