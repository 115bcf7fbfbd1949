import { BadRequestError } from '../../lib/errors';

/** `Parent Mobile`, `parent_mobile`, `PARENT-MOBILE` all read as `parentmobile`. */
export function headerKey(header: string): string {
  return header.toLowerCase().replace(/[^a-z0-9]/g, '');
}

export interface ColumnSpec<Field extends string> {
  field: Field;
  required: boolean;
  aliases: string[];
  /** What goes in the template's example row. */
  example: string;
}

const NAME_ALIASES = {
  first_name: ['firstname', 'first', 'givenname', 'forename'],
  last_name: ['lastname', 'last', 'surname', 'familyname'],
  full_name: ['name', 'fullname', 'studentname', 'teachername'],
};

export const STUDENT_COLUMNS: ColumnSpec<
  'first_name' | 'last_name' | 'class_name' | 'parent_phone' | 'parent_name' | 'full_name'
>[] = [
  { field: 'first_name', required: true, aliases: NAME_ALIASES.first_name, example: 'Aarav' },
  { field: 'last_name', required: true, aliases: NAME_ALIASES.last_name, example: 'Sharma' },
  { field: 'class_name', required: true, aliases: ['classname', 'class', 'grade', 'std', 'standard'], example: '7' },
  {
    field: 'parent_phone',
    required: true,
    aliases: [
      'parentphone',
      'parentphonenumber',
      'parentmobile',
      'parentcontact',
      'phone',
      'phonenumber',
      'mobile',
      'mobilenumber',
      'contact',
      'contactnumber',
      'whatsapp',
    ],
    example: '+919876543210',
  },
  {
    field: 'parent_name',
    required: false,
    aliases: ['parentname', 'parent', 'guardian', 'guardianname', 'fathername', 'mothername'],
    example: 'Rohit Sharma',
  },
];

export const TEACHER_COLUMNS: ColumnSpec<
  | 'first_name'
  | 'last_name'
  | 'email'
  | 'phone_number'
  | 'subjects'
  | 'classes_assigned'
  | 'qualification'
  | 'experience_years'
  | 'address'
  | 'emergency_contact'
  | 'full_name'
>[] = [
  { field: 'first_name', required: true, aliases: NAME_ALIASES.first_name, example: 'Priya' },
  { field: 'last_name', required: true, aliases: NAME_ALIASES.last_name, example: 'Nair' },
  {
    field: 'email',
    required: true,
    aliases: ['email', 'emailaddress', 'emailid', 'mail'],
    example: 'priya.nair@example.com',
  },
  {
    field: 'phone_number',
    required: true,
    aliases: ['phonenumber', 'phone', 'mobile', 'mobilenumber', 'contact', 'contactnumber'],
    example: '+919812345678',
  },
  { field: 'subjects', required: false, aliases: ['subjects', 'subject'], example: 'Mathematics, Physics' },
  {
    field: 'classes_assigned',
    required: false,
    aliases: ['classesassigned', 'classassigned', 'classes', 'class'],
    example: '9, 10',
  },
  { field: 'qualification', required: false, aliases: ['qualification', 'qualifications', 'degree'], example: 'M.Sc.' },
  {
    field: 'experience_years',
    required: false,
    aliases: ['experienceyears', 'experience', 'yearsofexperience', 'years'],
    example: '5',
  },
  { field: 'address', required: false, aliases: ['address'], example: '12 MG Road, Kochi' },
  {
    field: 'emergency_contact',
    required: false,
    aliases: ['emergencycontact', 'emergency', 'emergencyphone', 'emergencynumber'],
    example: '+919811112222',
  },
];

/**
 * Finds each field's column. A single Name column may stand in for first and last name (split on
 * the first space). Missing required columns refuse the whole file, naming them.
 */
export function mapColumns<Field extends string>(
  headers: string[],
  columns: ColumnSpec<Field>[],
): Map<Field | 'full_name', number> {
  const found = new Map<Field | 'full_name', number>();
  const keys = headers.map(headerKey);
  for (const column of [
    ...columns,
    { field: 'full_name' as const, required: false, aliases: NAME_ALIASES.full_name },
  ]) {
    if (found.has(column.field)) continue;
    const wanted = [headerKey(column.field), ...column.aliases];
    const index = keys.findIndex((key) => key !== '' && wanted.includes(key));
    if (index >= 0 && ![...found.values()].includes(index)) found.set(column.field, index);
  }
  const hasFullName = found.has('full_name');
  const missing = columns.filter(
    (column) =>
      column.required &&
      !found.has(column.field) &&
      !(hasFullName && (column.field === 'first_name' || column.field === 'last_name')),
  );
  if (missing.length > 0) {
    throw new BadRequestError(
      `Missing required column${missing.length === 1 ? '' : 's'}: ${missing.map((c) => c.field).join(', ')}. ` +
        `The first row must hold the column names; download the template to see them`,
    );
  }
  return found;
}

export function templateTable<Field extends string>(columns: ColumnSpec<Field>[]): string[][] {
  return [columns.map((column) => column.field), columns.map((column) => column.example)];
}
