/** Student imports refused: damaged, hostile, oversized or empty files, and callers without the right. */
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BadRequestError, PayloadTooLargeError } from '../src/lib/errors';
import { readSheet } from '../src/modules/imports/spreadsheet';
import { expectRefusal } from './helpers/answers';
import { api, count, counts, importApps, type Kind, nextPhone, STUDENT_HEADER, small, upload } from './helpers/imports';
import { detailOf } from './helpers/test-app';
import { buildZip, type Cell, multipartBody, rebuildWorkbook, workbook } from './helpers/workbooks';

importApps({ small: true });

describe('POST /import/students/import', () => {
  const damagedDeflate = rebuildWorkbook(workbook([STUDENT_HEADER, ['A', 'B', '7', '+919800000009']]), (name) =>
    name === 'xl/worksheets/sheet1.xml' ? { raw: Buffer.alloc(400, 0xff) } : {},
  );
  const truncatedDeflate = rebuildWorkbook(
    workbook([STUDENT_HEADER, ['A', 'B', '7', '+919800000009']]),
    (name, content) =>
      // The stream stops after 20 bytes, long before its end.
      name === 'xl/worksheets/sheet1.xml' ? { raw: deflateRawSync(content).subarray(0, 20) } : {},
  );

  it.each([
    [
      'a text file named .xlsx',
      Buffer.from('first_name,last_name\nA,B\n'),
      'data.xlsx',
      /^The file is not an Excel workbook \(\.xlsx or \.xls\)/,
    ],
    [
      'a PNG named .xls',
      Buffer.from('89504e470d0a1a0a0000000d4948445200000001', 'hex'),
      'photo.xls',
      /^The file is not an Excel workbook/,
    ],
    [
      'an HTML page named .xls',
      Buffer.from('<html><table><tr><td>a</td></tr></table></html>'),
      'export.xls',
      /^The file is not an Excel workbook/,
    ],
    ['a CSV file', Buffer.from('a,b\n'), 'data.csv', /^Please upload only Excel files \(\.xlsx or \.xls\)$/],
    [
      'a file with no extension',
      Buffer.from('a,b\n'),
      'students',
      /^Please upload only Excel files \(\.xlsx or \.xls\)$/,
    ],
    ['a program named .xlsx.exe', Buffer.from('MZ'), 'list.xlsx.exe', /^Please upload only Excel files/],
    ['an empty file', Buffer.alloc(0), 'empty.xlsx', /^The file is empty/],
    [
      'a zip header and junk',
      Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(300, 7)]),
      'broken.xlsx',
      /damaged/,
    ],
    ['a workbook cut in half', workbook([STUDENT_HEADER]).subarray(0, 3000), 'half.xlsx', /damaged/],
    [
      'a zip that is not a workbook',
      buildZip([{ name: 'notes.txt', content: Buffer.from('hello') }]),
      'notes.xlsx',
      /could not be read/,
    ],
    [
      'an OLE2 header and junk',
      Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(2000, 1)]),
      'old.xls',
      /could not be read/,
    ],
    ['a damaged compressed sheet', damagedDeflate, 'bad.xlsx', /the part xl\/worksheets\/sheet1\.xml is damaged/],
    ['a compressed sheet cut short', truncatedDeflate, 'bad.xlsx', /the part xl\/worksheets\/sheet1\.xml is damaged/],
    [
      'a password-protected zip',
      rebuildWorkbook(workbook([STUDENT_HEADER]), () => ({ flags: 1 })),
      'secret.xlsx',
      /^The workbook is password-protected/,
    ],
  ])('refuses %s with 400 and a detail that says why, importing nothing', async (_name, file, filename, detail) => {
    const before = await counts();
    const started = Date.now();
    const response = await upload('students', file, filename);
    expect(response.statusCode).toBe(400);
    expect(detailOf(response)).toMatch(detail);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await counts()).toEqual(before);
  });

  it.each<[Kind, string[], string[], string | RegExp]>([
    [
      'students',
      ['First Name', 'Last Name', 'Notes'],
      ['A', 'B', 'x'],
      "Missing required columns: class_name, parent_phone. The first row must hold the column names (this file's has: First Name, Last Name, Notes); download the template to see them",
    ],
    [
      'students',
      ['first_name', 'last_name', 'class_name'],
      ['A', 'B', '7'],
      /^Missing required column: parent_phone\./,
    ],
    [
      'teachers',
      ['first_name', 'last_name', 'phone_number'],
      ['A', 'B', nextPhone()],
      /^Missing required column: email\. The first row must hold the column names/,
    ],
  ])(
    'refuses a %s file missing required columns (%j), naming them and what the first row holds',
    async (kind, header, row, detail) => {
      expectRefusal(await upload(kind, workbook([header, row])), 400, detail);
    },
  );

  it('refuses a file with a header and no data rows, and a workbook with nothing in it', async () => {
    const header = await upload('students', workbook([STUDENT_HEADER, [], [null, null, null, null]]));
    expect(header.statusCode).toBe(400);
    expect(detailOf(header)).toBe(
      'The file has no data rows under the header (row 1); add one row per record under the column names and try again',
    );
    const empty = await upload('students', workbook([]));
    expect(empty.statusCode).toBe(400);
    expect(detailOf(empty)).toMatch(/^The workbook has no data/);
  });

  it('refuses a request without a file, or with the file in another field, or a broken multipart body', async () => {
    const admin = api.as('admin');
    const url = '/api/v1/import/students/import';
    const json = await admin.post(url, {});
    expect(json.statusCode).toBe(400);
    expect(detailOf(json)).toMatch(/multipart\/form-data, in a field named "file"/);

    const noFile = await admin.upload(url, [{ field: 'file', content: 'not a file' }]);
    expect(noFile.statusCode).toBe(400);
    expect(detailOf(noFile)).toBe('No file was sent: choose a spreadsheet for the field named "file"');

    const other = await upload('students', workbook([STUDENT_HEADER]), 'x.xlsx', { field: 'upload' });
    expect(other.statusCode).toBe(400);
    expect(detailOf(other)).toBe('The file must be sent in the field named "file", not "upload"');

    const cut = multipartBody([{ field: 'file', filename: 'x.xlsx', content: workbook([STUDENT_HEADER]) }]);
    for (const [headers, payload] of [
      [{ 'content-type': 'multipart/form-data' }, cut.payload],
      [cut.headers, cut.payload.subarray(0, 200)],
      [cut.headers, Buffer.from('garbage without any boundary')],
    ] as const) {
      const response = await admin.post(url, undefined, { headers, raw: payload });
      expect(response.statusCode).toBe(400);
      expect(detailOf(response)).toBeTruthy();
    }
  });

  it('refuses a file over the size limit with 413, from the multipart limit as well as after it', async () => {
    const rows: Cell[][] = [STUDENT_HEADER];
    for (let i = 0; i < 3000; i += 1) rows.push([`Name${i}`, `Surname${i}`, '7', `+9198${String(i).padStart(8, '0')}`]);
    const file = workbook(rows, { bookType: 'biff8' });
    expect(file.length).toBeGreaterThan(20_000);
    const response = await upload('students', file, 'big.xls', { app: small });
    expect(response.statusCode).toBe(413);
    expect(detailOf(response)).toBe(
      'The file is larger than 20 KB, the most that can be imported at once; split it into smaller files and import them one by one',
    );
    expect(await count('students', small)).toBe(0);
    // The reader checks the size again itself, whoever calls it.
    const direct = await readSheet(file, { maxBytes: 20_000, maxRows: 5 }).catch((e: unknown) => e);
    expect(direct).toBeInstanceOf(PayloadTooLargeError);
  });

  it('refuses more data rows than the limit with 413, counting only rows that hold something', async () => {
    const rows: Cell[][] = [STUDENT_HEADER];
    for (let i = 0; i < 6; i += 1) rows.push([`N${i}`, `S${i}`, '7', `+91987000000${i}`]);
    const response = await upload('students', workbook(rows), 'rows.xlsx', { app: small });
    expect(response.statusCode).toBe(413);
    expect(detailOf(response)).toBe(
      'The file has 6 rows under the header; at most 5 can be imported at once. Split it into smaller files and import them one by one',
    );
    expect(await count('students', small)).toBe(0);

    // Five rows with blank rows between them are within the limit.
    const spaced: Cell[][] = [STUDENT_HEADER];
    for (let i = 0; i < 5; i += 1) spaced.push([`N${i}`, `S${i}`, '7', `+91987000001${i}`], []);
    const ok = await upload('students', workbook(spaced), 'rows.xlsx', { app: small });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ total_rows: 5, imported_count: 5 });
    expect(ok.json().errors).toEqual([]);
  });

  it('refuses a zip bomb without unpacking it: by its declared size, by its real size, by its part count', async () => {
    const good = workbook([STUDENT_HEADER, ['A', 'B', '7', '+919800000009']]);
    // The directory says 4 GB.
    const declared = rebuildWorkbook(good, (name) => (name === 'xl/styles.xml' ? { declaredSize: 0xfffffffe } : {}));
    // The headers say 100 bytes; the stream unpacks to 60 MB of spaces.
    const bomb = rebuildWorkbook(good, (name) =>
      name === 'xl/worksheets/sheet1.xml' ? { content: Buffer.alloc(60 * 1024 * 1024, 0x20), declaredSize: 100 } : {},
    );
    expect(bomb.length).toBeLessThan(200_000);
    for (const file of [declared, bomb]) {
      const started = Date.now();
      const response = await upload('students', file, 'bomb.xlsx');
      expect(response.statusCode).toBe(413);
      expect(detailOf(response)).toMatch(/^The workbook unpacks to more than 50 MB/);
      expect(Date.now() - started).toBeLessThan(5000);
    }
    const many = buildZip(Array.from({ length: 1001 }, (_, i) => ({ name: `p${i}.xml`, content: Buffer.from('x') })));
    const parts = await upload('students', many, 'many.xlsx');
    expect(parts.statusCode).toBe(400);
    expect(detailOf(parts)).toMatch(/it holds 1001 parts/);
  });

  it('gives up on a reader that overruns its time, with a 400 that says so', async () => {
    const file = workbook([STUDENT_HEADER, ['A', 'B', '7', '+919800000009']]);
    const error = await readSheet(file, { maxBytes: 1_000_000, maxRows: 10, timeoutMs: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toMatch(/^The workbook could not be read within 1 second; it may be damaged/);
  });

  it('needs a token, and refuses a teacher with 403 before reading the file', async () => {
    const file = workbook([STUDENT_HEADER, ['A', 'B', '7', nextPhone()]]);
    for (const kind of ['students', 'teachers'] as const) {
      const anonymous = await api
        .anonymous()
        .upload(`/api/v1/import/${kind}/import`, [{ field: 'file', filename: 'a.xlsx', content: file }]);
      expect(anonymous.statusCode).toBe(401);
      const teacher = await upload(kind, file, 'a.xlsx', { token: await api.teacherToken() });
      expect(teacher.statusCode).toBe(403);
    }
  });
});
