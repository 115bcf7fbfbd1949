/**
 * The accountant's exports (issue 29): dues, collections and a family's statement as CSV or Excel,
 * made from the same reports the screens read (so each file agrees with /fees/dues, /collections and
 * the statement), with money in rupees as numbers and every text cell safe from formula injection.
 * Column names, the sheet's name and the product's own words are in the language asked for (ADR 066).
 */
import * as XLSX from '@e965/xlsx';
import type {
  Collections,
  collectionsQuerySchema,
  FeeExportFormat,
  feeExportQuerySchema,
  ParentLanguage,
} from '@tuitiondesk/contract';
import type { z } from 'zod';
import type { Queryable } from '../../db/database';
import { CSV_BOM, CSV_LINE_END, csvSafeText, quoteCsvField } from '../../lib/spreadsheet-text';
import { today } from '../../lib/time';
import { descriptionIn, exportWords } from './export-texts';
import { familiesDetails, familyDetails } from './fee-families';
import type { PaymentMode } from './ledger';
import { getCollections, getDues, getStatement } from './reports';

export type ExportFormat = FeeExportFormat;
/** The format and the language of a file, as the routes take them. */
export type ExportChoice = z.output<typeof feeExportQuerySchema>;

/** A cell as the report has it; each format writes it its own way. */
export type ExportCell =
  | { kind: 'text'; value: string }
  /** An identifier of digits that must keep every digit (a 12-digit UPI reference, cheque 000123). */
  | { kind: 'code'; value: string }
  | { kind: 'money'; paise: number }
  | { kind: 'date'; iso: string }
  | { kind: 'count'; value: number }
  | { kind: 'empty' };

export interface ExportTable {
  /** The sheet's name in Excel, and the file name's middle part. */
  title: string;
  header: readonly string[];
  rows: readonly (readonly ExportCell[])[];
}

export interface ExportFile {
  filename: string;
  contentType: string;
  body: string | Buffer;
}

const text = (value: string | null | undefined): ExportCell => (value ? { kind: 'text', value } : { kind: 'empty' });
const code = (value: string | null | undefined): ExportCell => (value ? { kind: 'code', value } : { kind: 'empty' });
const money = (paise: number): ExportCell => ({ kind: 'money', paise });
const date = (iso: string): ExportCell => ({ kind: 'date', iso });
const count = (value: number): ExportCell => ({ kind: 'count', value });
const EMPTY: ExportCell = { kind: 'empty' };

/** 125050 paise as "1250.50": what any spreadsheet reads as the number 1250.5, in every locale's CSV import. */
export function rupeesText(paise: number): string {
  const sign = paise < 0 ? '-' : '';
  const abs = Math.abs(paise);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

function csvField(cell: ExportCell): string {
  switch (cell.kind) {
    case 'text':
      return quoteCsvField(csvSafeText(cell.value));
    case 'code':
      // Excel would read digits as a number (4.12346E+11, 123 for 000123): behind a quote they stay text.
      return quoteCsvField(/^\d+$/.test(cell.value) ? `'${cell.value}` : csvSafeText(cell.value));
    case 'money':
      return quoteCsvField(rupeesText(cell.paise));
    case 'date':
      return quoteCsvField(cell.iso);
    case 'count':
      return quoteCsvField(String(cell.value));
    case 'empty':
      return '""';
  }
}

/** UTF-8 with a byte order mark (Excel otherwise misreads Indian scripts), CRLF lines, every field quoted. */
export function tableCsv(table: ExportTable): string {
  const lines = [
    table.header.map((name) => quoteCsvField(csvSafeText(name))),
    ...table.rows.map((row) => row.map(csvField)),
  ];
  return CSV_BOM + lines.map((fields) => fields.join(',') + CSV_LINE_END).join('');
}

const MONEY_FORMAT = '#,##0.00';
const DATE_FORMAT = 'yyyy-mm-dd';
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);

function xlsxCell(cell: ExportCell): XLSX.CellObject | undefined {
  switch (cell.kind) {
    case 'text':
    case 'code':
      // A string cell is never evaluated; a formula exists only where `f` is set, which no cell here has.
      return { t: 's', v: cell.value };
    case 'money':
      return { t: 'n', v: cell.paise / 100, z: MONEY_FORMAT };
    case 'date':
      return { t: 'n', v: (Date.parse(`${cell.iso}T00:00:00Z`) - EXCEL_EPOCH_MS) / 86_400_000, z: DATE_FORMAT };
    case 'count':
      return { t: 'n', v: cell.value };
    case 'empty':
      return undefined;
  }
}

/** One sheet: the header row, then the rows; money as numbers shown with two decimals, dates as dates (ISO). */
export function tableXlsx(table: ExportTable): Buffer {
  const sheet: XLSX.WorkSheet = {};
  const all: readonly (readonly ExportCell[])[] = [table.header.map((name) => text(name)), ...table.rows];
  all.forEach((row, r) => {
    row.forEach((cell, c) => {
      const written = xlsxCell(cell);
      if (written) sheet[XLSX.utils.encode_cell({ r, c })] = written;
    });
  });
  sheet['!ref'] = XLSX.utils.encode_range({ s: { r: 0, c: 0 }, e: { r: all.length - 1, c: table.header.length - 1 } });
  sheet['!cols'] = table.header.map((name, c) => ({
    wch: Math.min(60, Math.max(name.length, ...table.rows.map((row) => widthOf(row[c]))) + 2),
  }));
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, table.title);
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
}

function widthOf(cell: ExportCell | undefined): number {
  if (!cell) return 0;
  if (cell.kind === 'text' || cell.kind === 'code') return cell.value.length;
  if (cell.kind === 'money') return rupeesText(cell.paise).length + 3;
  if (cell.kind === 'date') return 10;
  if (cell.kind === 'count') return String(cell.value).length;
  return 0;
}

/** The file of a table in the format asked for, named `fees-<name>.<format>` (ASCII in every language). */
export function exportFile(table: ExportTable, name: string, format: ExportFormat): ExportFile {
  if (format === 'xlsx') {
    return {
      filename: `fees-${name}.xlsx`,
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      body: tableXlsx(table),
    };
  }
  return { filename: `fees-${name}.csv`, contentType: 'text/csv; charset=utf-8', body: tableCsv(table) };
}

const childrenText = (students: readonly { full_name: string; class_name: string }[]) =>
  students
    .map((student) => (student.class_name ? `${student.full_name} (${student.class_name})` : student.full_name))
    .join('; ');

/** The dues list as GET /fees/dues answers it, one family a row, oldest debt first, and its total. */
export async function duesTable(db: Queryable, language: ParentLanguage = 'en'): Promise<ExportTable> {
  const t = exportWords(language);
  const dues = await getDues(db);
  const total = dues.reduce((sum, due) => sum + due.balance_paise, 0);
  return {
    title: t('sheet.dues'),
    header: [
      t('column.family_id'),
      t('column.parent'),
      t('column.phone'),
      t('column.children'),
      t('column.balance'),
      t('column.oldest_due_date'),
      t('column.days_overdue'),
    ],
    rows: [
      ...dues.map((due) => [
        count(due.family_id),
        text(due.parent_name),
        text(due.parent_phone),
        text(childrenText(due.students)),
        money(due.balance_paise),
        date(due.oldest_due_date),
        count(due.days_overdue),
      ]),
      [text(t('total')), EMPTY, EMPTY, text(t('total.families', { count: dues.length })), money(total), EMPTY, EMPTY],
    ],
  };
}

/** A family's statement as GET /fees/families/{id}/statement answers it, oldest first, and its totals. 404 for no such family. */
export async function statementTable(
  db: Queryable,
  familyId: number,
  language: ParentLanguage = 'en',
): Promise<ExportTable> {
  const t = exportWords(language);
  const statement = await getStatement(db, familyId);
  const family = await familyDetails(db, familyId);
  const names = new Map(family.students.map((student) => [student.id, student.full_name]));
  let debits = 0;
  let credits = 0;
  const rows = statement.entries.map((entry) => {
    debits += entry.debit_paise;
    credits += entry.credit_paise;
    const student =
      entry.student_id === null ? '' : (names.get(entry.student_id) ?? t('student', { id: entry.student_id }));
    return [
      date(entry.date),
      text(t(`kind.${entry.kind}`)),
      text(descriptionIn(language, entry.kind, entry.description)),
      text(student),
      entry.debit_paise ? money(entry.debit_paise) : EMPTY,
      entry.credit_paise ? money(entry.credit_paise) : EMPTY,
      money(entry.balance_paise),
    ];
  });
  const who = family.parent_name ? `${family.parent_name} (${family.parent_phone})` : t('family', { id: familyId });
  return {
    title: t('sheet.statement'),
    header: [
      t('column.date'),
      t('column.kind'),
      t('column.description'),
      t('column.child'),
      t('column.debit'),
      t('column.credit'),
      t('column.balance'),
    ],
    rows: [
      ...rows,
      [EMPTY, text(t('total')), text(who), EMPTY, money(debits), money(credits), money(statement.balance_paise)],
    ],
  };
}

type CollectionsFilter = z.output<typeof collectionsQuerySchema>;

/**
 * Collections as GET /collections counts them, one row a movement: each payment received in the period
 * (on the day received), each reversal made in it (on the day reversed, negative); the total is the
 * report's `amount_paise`. Answers the period too, for the file's name.
 */
export async function collectionsTable(
  db: Queryable,
  query: CollectionsFilter,
  language: ParentLanguage = 'en',
): Promise<{ table: ExportTable; collections: Collections }> {
  const t = exportWords(language);
  const collections = await getCollections(db, query);
  const rows = await db.query<{
    day: string;
    movement: 'payment' | 'reversal';
    receipt_number: string;
    family_id: number;
    mode: PaymentMode;
    reference: string | null;
    staff: string | null;
    amount_paise: number;
    note: string | null;
  }>(
    `SELECT p.received_on AS day, 'payment' AS movement, p.receipt_number, p.family_id, p.mode, p.reference,
            u.full_name AS staff, p.amount_paise, NULL AS note, p.transaction_id AS ordering
       FROM fee_payments p LEFT JOIN users u ON u.id = p.recorded_by
      WHERE p.received_on BETWEEN $1 AND $2
     UNION ALL
     SELECT r.occurred_on, 'reversal', p.receipt_number, p.family_id, p.mode, p.reference,
            u.full_name, -p.amount_paise, r.description, r.id
       FROM ledger_transactions r JOIN fee_payments p ON p.transaction_id = r.reverses
       LEFT JOIN users u ON u.id = p.recorded_by
      WHERE r.occurred_on BETWEEN $1 AND $2
      ORDER BY day, ordering`,
    [collections.from, collections.to],
  );
  const familyIds = [...new Set(rows.map((row) => Number(row.family_id)))];
  const families = await familiesDetails(db, familyIds);
  return {
    collections,
    table: {
      title: t('sheet.collections'),
      header: [
        t('column.date'),
        t('column.receipt'),
        t('column.movement'),
        t('column.family_id'),
        t('column.parent'),
        t('column.phone'),
        t('column.mode'),
        t('column.reference'),
        t('column.staff'),
        t('column.amount'),
        t('column.note'),
      ],
      rows: [
        ...rows.map((row) => {
          const family = families.get(Number(row.family_id));
          return [
            date(row.day),
            text(row.receipt_number),
            text(t(`movement.${row.movement}`)),
            count(Number(row.family_id)),
            text(family?.parent_name),
            text(family?.parent_phone),
            text(t(`mode.${row.mode}`)),
            code(row.reference),
            text(row.staff ?? (row.mode === 'online' ? 'Razorpay' : '')),
            money(Number(row.amount_paise)),
            text(row.note),
          ];
        }),
        [
          EMPTY,
          text(t('total')),
          text(t('total.movements', { payments: collections.payments, reversals: collections.reversals })),
          EMPTY,
          EMPTY,
          EMPTY,
          EMPTY,
          EMPTY,
          EMPTY,
          money(collections.amount_paise),
          EMPTY,
        ],
      ],
    },
  };
}

export async function duesExport(db: Queryable, { format, lang }: ExportChoice): Promise<ExportFile> {
  return exportFile(await duesTable(db, lang), `dues-${today()}`, format);
}

export async function statementExport(
  db: Queryable,
  familyId: number,
  { format, lang }: ExportChoice,
): Promise<ExportFile> {
  return exportFile(await statementTable(db, familyId, lang), `statement-family-${familyId}-${today()}`, format);
}

export async function collectionsExport(
  db: Queryable,
  query: CollectionsFilter,
  { format, lang }: ExportChoice,
): Promise<ExportFile> {
  const { table, collections } = await collectionsTable(db, query, lang);
  const period = collections.from === collections.to ? collections.from : `${collections.from}-to-${collections.to}`;
  return exportFile(table, `collections-${period}`, format);
}
