import { describe, expect, it } from 'vitest';
import { buildCsv, CSV_BOM, csvBlob, neutraliseCell, quoteCell } from './csv';

describe('CSV builder', () => {
  it('starts with a UTF-8 byte order mark and ends every line with CRLF', () => {
    const csv = buildCsv(['A', 'B'], [['1', '2']]);
    expect(csv.startsWith(CSV_BOM)).toBe(true);
    expect(csv.slice(1)).toBe('"A","B"\r\n"1","2"\r\n');
  });

  it('quotes every field and doubles inner quotes (RFC 4180)', () => {
    expect(quoteCell('plain')).toBe('"plain"');
    expect(quoteCell('say "hi"')).toBe('"say ""hi"""');
    expect(quoteCell('a,b')).toBe('"a,b"');
    expect(quoteCell('line one\r\nline two')).toBe('"line one\r\nline two"');
  });

  it('writes null and undefined as empty cells, numbers as they are', () => {
    expect(buildCsv(['x', 'y', 'z'], [[null, undefined, -3]]).slice(1)).toBe('"x","y","z"\r\n"","","-3"\r\n');
  });

  it('neutralises every cell that a spreadsheet would read as a formula (OWASP)', () => {
    for (const dangerous of ['=1+1', '+91 98', '-2+3', '@SUM(A1)', '\t=cmd', '\r=cmd']) {
      expect(neutraliseCell(dangerous)).toBe(`'${dangerous}`);
    }
    expect(quoteCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(neutraliseCell('Asha = top')).toBe('Asha = top');
    expect(neutraliseCell('')).toBe('');
  });

  it('keeps non-ASCII text intact', async () => {
    const csv = buildCsv(['Name'], [['अनन्या Śarmā']]);
    const bytes = new Uint8Array(await csvBlob(csv).arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes)).toContain('अनन्या Śarmā');
  });
});
