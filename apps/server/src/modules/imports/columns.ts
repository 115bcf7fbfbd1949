import { BadRequestError } from '../../lib/errors';

/** `Parent Mobile`, `parent_mobile`, `PARENT-MOBILE`, `Parent Mobile*` all read as `parentmobile`. */
export function headerKey(header: string): string {
  return header.toLowerCase().replace(/[^a-z0-9]/g, '');
}

export interface ColumnSpec<Field extends string> {
  field: Field;
  required: boolean;
  /** Header keys (see headerKey) that mean this field, best first; the field's own name always comes first. */
  aliases: string[];
  /** What goes in the template's example row. */
  example: string;
}

/** A single name column may stand in for first_name and last_name: split on the first space. */
export const FULL_NAME = 'full_name';

const FIRST_NAME_ALIASES = ['firstname', 'first', 'givenname', 'forename', 'fname'];
const LAST_NAME_ALIASES = ['lastname', 'last', 'surname', 'familyname', 'lname'];
/** Headers that name a phone without saying whose: a teacher's own, or a parent's when no header says parent. */
const PHONE_ALIASES = [
  'phone',
  'phonenumber',
  'phoneno',
  'mobile',
  'mobilenumber',
  'mobileno',
  'contact',
  'contactnumber',
  'contactno',
  'whatsapp',
  'whatsappnumber',
];

export type ImportKind = 'students' | 'teachers';

export type StudentField =
  | 'first_name'
  | 'last_name'
  | 'class_name'
  | 'parent_phone'
  | 'parent_name'
  | 'parent_whatsapp_opt_in'
  | 'parent_language';
export type TeacherField =
  | 'first_name'
  | 'last_name'
  | 'email'
  | 'phone_number'
  | 'subjects'
  | 'classes_assigned'
  | 'qualification'
  | 'experience_years'
  | 'address'
  | 'emergency_contact';

export const STUDENT_COLUMNS: ColumnSpec<StudentField>[] = [
  { field: 'first_name', required: true, aliases: FIRST_NAME_ALIASES, example: 'Aarav' },
  { field: 'last_name', required: true, aliases: LAST_NAME_ALIASES, example: 'Sharma' },
  {
    field: 'class_name',
    required: true,
    aliases: ['class', 'grade', 'std', 'standard', 'classname', 'studentclass'],
    example: '7',
  },
  {
    field: 'parent_phone',
    required: true,
    aliases: [
      'parentphone',
      'parentsphone',
      'parentphonenumber',
      'parentmobile',
      'parentsmobile',
      'parentmobilenumber',
      'parentcontact',
      'parentcontactnumber',
      'parentwhatsapp',
      'guardianphone',
      'guardianmobile',
      'guardiancontact',
      'fatherphone',
      'fathersphone',
      'fathermobile',
      'fathersmobile',
      'motherphone',
      'mothersphone',
      'mothermobile',
      'mothersmobile',
      ...PHONE_ALIASES,
    ],
    example: '+919876543210',
  },
  {
    field: 'parent_name',
    required: false,
    aliases: [
      'parentname',
      'parentsname',
      'parent',
      'guardian',
      'guardianname',
      'fathername',
      'fathersname',
      'mothername',
      'mothersname',
    ],
    example: 'Rohit Sharma',
  },
  {
    field: 'parent_whatsapp_opt_in',
    required: false,
    // Not `whatsapp` alone: that header is the parent's WhatsApp number.
    aliases: ['whatsappoptin', 'whatsappconsent', 'parentwhatsappconsent', 'whatsappagreed', 'optin', 'consent'],
    example: 'yes',
  },
  {
    field: 'parent_language',
    required: false,
    aliases: ['language', 'parentslanguage', 'lang', 'preferredlanguage', 'homelanguage'],
    example: 'hi',
  },
];

export const TEACHER_COLUMNS: ColumnSpec<TeacherField>[] = [
  { field: 'first_name', required: true, aliases: FIRST_NAME_ALIASES, example: 'Priya' },
  { field: 'last_name', required: true, aliases: LAST_NAME_ALIASES, example: 'Nair' },
  {
    field: 'email',
    required: true,
    aliases: ['email', 'emailaddress', 'emailid', 'mail', 'mailid'],
    example: 'priya.nair@example.com',
  },
  {
    field: 'phone_number',
    required: true,
    aliases: PHONE_ALIASES,
    example: '+919812345678',
  },
  {
    field: 'subjects',
    required: false,
    aliases: ['subject', 'subjectstaught', 'subjectsteaching'],
    example: 'Mathematics, Physics',
  },
  {
    field: 'classes_assigned',
    required: false,
    aliases: ['classes', 'classassigned', 'classestaught', 'class', 'grades'],
    example: '9, 10',
  },
  { field: 'qualification', required: false, aliases: ['qualifications', 'degree', 'education'], example: 'M.Sc.' },
  {
    field: 'experience_years',
    required: false,
    aliases: ['experience', 'yearsofexperience', 'experienceinyears', 'years', 'exp'],
    example: '5',
  },
  {
    field: 'address',
    required: false,
    aliases: ['homeaddress', 'residentialaddress', 'postaladdress'],
    example: '12 MG Road, Kochi',
  },
  {
    field: 'emergency_contact',
    required: false,
    aliases: ['emergency', 'emergencyphone', 'emergencynumber', 'emergencycontactnumber'],
    example: '+919811112222',
  },
];

const FULL_NAME_ALIASES: Record<ImportKind, string[]> = {
  students: ['fullname', 'name', 'studentname', 'studentfullname', 'nameofstudent'],
  teachers: ['fullname', 'name', 'teachername', 'teacherfullname', 'nameofteacher'],
};

export interface ColumnMap<Field extends string> {
  /** The column index of each field found. */
  index: Map<Field | typeof FULL_NAME, number>;
  /** Each found field's header as the file writes it, for row errors the admin can match to the sheet. */
  label: Map<Field | typeof FULL_NAME, string>;
  /** True when first and last name come from one name column. */
  splitsName: boolean;
}

/**
 * Finds each field's column: for each field in turn, the first of its names (own name, then aliases
 * in order) that a header has, so `Parent Phone` wins over a plain `Phone`. Each column serves one
 * field. A single Name column may stand in for first and last name. Missing required columns refuse
 * the whole file, naming them.
 */
export function mapColumns<Field extends string>(
  headers: string[],
  columns: ColumnSpec<Field>[],
  kind: ImportKind,
): ColumnMap<Field> {
  const keys = headers.map(headerKey);
  const taken = new Set<number>();
  const index = new Map<Field | typeof FULL_NAME, number>();
  const label = new Map<Field | typeof FULL_NAME, string>();
  const wanted: { field: Field | typeof FULL_NAME; names: string[] }[] = [
    ...columns.map((column) => ({ field: column.field, names: [headerKey(column.field), ...column.aliases] })),
    { field: FULL_NAME, names: FULL_NAME_ALIASES[kind] },
  ];
  for (const { field, names } of wanted) {
    for (const name of names) {
      const at = keys.findIndex((key, i) => key === name && !taken.has(i));
      if (at >= 0) {
        taken.add(at);
        index.set(field, at);
        label.set(field, headers[at] ?? field);
        break;
      }
    }
  }
  const splitsName = index.has(FULL_NAME) && !(index.has('first_name' as Field) && index.has('last_name' as Field));
  const missing = columns.filter(
    (column) =>
      column.required &&
      !index.has(column.field) &&
      !(splitsName && (column.field === 'first_name' || column.field === 'last_name')),
  );
  if (missing.length > 0) {
    const found = headers.filter((header) => header !== '');
    const shown = found.slice(0, 12).join(', ') + (found.length > 12 ? ', …' : '');
    throw new BadRequestError('imports.missing_columns', {
      count: missing.length,
      columns: missing.map((c) => c.field).join(', '),
      found: shown,
    });
  }
  return { index, label, splitsName };
}

export function templateTable<Field extends string>(columns: ColumnSpec<Field>[]): string[][] {
  return [columns.map((column) => column.field), columns.map((column) => column.example)];
}
