import { listInWords } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { readClassChoices, readSubjectChoices } from '../classes';
import { type ImportKind, STUDENT_COLUMNS, TEACHER_COLUMNS, templateTable } from './columns';
import { formatSize, writeWorkbook } from './spreadsheet';

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The centre's active classes and subjects, as the instructions list them (ADR 043). */
export interface TemplateLists {
  classes: string[];
  subjects: string[];
}

export async function templateLists(ctx: AppContext): Promise<TemplateLists> {
  const [classes, subjects] = await Promise.all([readClassChoices(ctx.db), readSubjectChoices(ctx.db)]);
  return { classes: classes.allowed, subjects: subjects.allowed };
}

/** "Class 7", "7th" and "VII" read as 7: said only when the centre has a class with a number. */
function classesLine(lists: TemplateLists, lead: string): string {
  const numbered = lists.classes.find((value) => /^\d+$/.test(value));
  const example = numbered
    ? ` "Class ${numbered}" and "${numbered}th" are read as ${numbered}.`
    : ' A class may be written as its name or as its label.';
  return `${lead}${listInWords(lists.classes.map((value) => (value.includes(' ') ? `"${value}"` : value)))}.${example}`;
}

const common = (limits: TemplateLimits) => [
  '',
  'How to fill it in',
  '- Keep the first row of the first sheet as it is: it holds the column names. Put one record per row under it.',
  '- Required columns come first. Optional columns may be left empty or deleted.',
  "- Phone numbers: with the country code (+91 98123 45670), or without it (98123 45670, 098123-45670) to take the centre's default country code, shown to admins on the Students screen. Spaces, dashes and brackets are fine.",
  '- Delete the example row before you import.',
  '- Rows with errors are skipped and listed with their row number; the other rows are imported.',
  '- "Check file" shows what would be imported, and every row error, without saving anything.',
  `- Up to ${limits.maxRows.toLocaleString('en-US')} rows and ${formatSize(limits.maxBytes)} per file; split longer lists into several files.`,
];

export interface TemplateLimits {
  maxRows: number;
  maxBytes: number;
}

interface Template {
  filename: string;
  sheet: string;
  table: string[][];
  widths: number[];
  instructions: (limits: TemplateLimits, lists: TemplateLists) => string[];
}

const TEMPLATES: Record<ImportKind, Template> = {
  students: {
    filename: 'student_import_template.xlsx',
    sheet: 'Students',
    table: templateTable(STUDENT_COLUMNS),
    widths: [16, 16, 12, 18, 22, 22, 16],
    instructions: (limits, lists) => [
      'Student import',
      '',
      'Columns',
      '- first_name (required)',
      '- last_name (required)',
      classesLine(lists, '- class_name (required): one of '),
      '- parent_phone (required): e.g. 98123 45670, or +91 98123 45670 with the country code.',
      '- parent_name (optional)',
      '- parent_whatsapp_opt_in (optional): yes when the parent agreed to WhatsApp messages from the centre, else no (true/false, y/n and 1/0 are read too). Empty keeps the family as it is (no for a new family).',
      "- parent_language (optional): the language the family reads: en, hi, mr, ta, bn or ur, or the language's name in English or in itself (Hindi, हिन्दी). Empty keeps it as it is (English for a new family).",
      'Consent and language belong to the family: they apply to every child with the same parent phone, including children already on record. When two rows of one family disagree, the later row wins.',
      'A parent who turned WhatsApp off themselves (by replying STOP, or in the parent app) is the only one who can turn it on again: a yes for that family is an error and its row is not imported; leave the cell empty or write no.',
      '',
      "A student with the same name and parent phone as a student already on record, or as an earlier row, is reported and not imported twice; that row changes nothing (change a family's consent or language on the Students screen).",
      ...common(limits),
    ],
  },
  teachers: {
    filename: 'teacher_import_template.xlsx',
    sheet: 'Teachers',
    table: templateTable(TEACHER_COLUMNS),
    widths: [16, 16, 28, 18, 26, 18, 16, 18, 28, 20],
    instructions: (limits, lists) => [
      'Teacher import',
      '',
      'Columns',
      '- first_name (required)',
      '- last_name (required)',
      '- email (required): a valid email address, different for every teacher. A teacher whose email is already on record is reported and not imported twice.',
      '- phone_number (required): e.g. 98123 45670, or +91 98123 45670 with the country code.',
      `- subjects (optional): a comma-separated list from: ${lists.subjects.join(', ')}.`,
      classesLine(lists, '- classes_assigned (optional): a comma-separated list of '),
      '- qualification (optional)',
      '- experience_years (optional): a whole number of years; empty means 0.',
      '- address (optional)',
      '- emergency_contact (optional)',
      '',
      'Each imported teacher gets a sign-in account (username = their teacher ID). The import result shows each initial password once; hand it over, and the teacher chooses a new one at first sign-in.',
      ...common(limits),
    ],
  },
};

export interface TemplateFile {
  filename: string;
  content: Buffer;
}

/** The template workbook; the routes build each once, at start-up, with the configured limits. */
export function buildTemplate(kind: ImportKind, limits: TemplateLimits, lists: TemplateLists): TemplateFile {
  const template = TEMPLATES[kind];
  return {
    filename: template.filename,
    content: writeWorkbook(template.sheet, template.table, template.instructions(limits, lists), template.widths),
  };
}
