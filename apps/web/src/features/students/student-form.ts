import { normalisePhone, type ParentLanguage, type Student, type UpdateStudentRequest } from '@tuitiondesk/contract';

export interface StudentForm {
  full_name: string;
  class_name: string;
  parent_name: string;
  parent_phone: string;
  /**
   * The family's, and present only when changed in the dialog: the server applies it to every child with
   * this parent phone. Left out, the family keeps its own (a new brother or sister, or a child moved to
   * another family's phone, takes that family's), so a dialog opened before a parent's STOP reply never
   * sets the consent back.
   */
  parent_whatsapp_opt_in?: boolean;
  parent_language?: ParentLanguage;
}

export type StudentTextField = 'full_name' | 'class_name' | 'parent_name' | 'parent_phone';

export const emptyStudentForm: StudentForm = {
  full_name: '',
  class_name: '',
  parent_name: '',
  parent_phone: '',
};

export function formFromStudent(student: Student): StudentForm {
  return {
    full_name: student.full_name,
    class_name: student.class_name,
    parent_name: student.parent_name,
    parent_phone: student.parent_phone,
  };
}

/** Add Student stays disabled until all four fields hold more than spaces (Edit has no checks). */
export function isStudentFormComplete(form: StudentForm): boolean {
  return [form.full_name, form.class_name, form.parent_name, form.parent_phone].every((value) => value.trim() !== '');
}

/** What Edit Student sends. */
export type StudentEdit = UpdateStudentRequest & { id: number };

/**
 * The whole edited record, as the console sends it, except the family's consent and language unless the
 * dialog changed them (see StudentForm).
 */
export function editedStudent(student: Student, form: StudentForm): StudentEdit {
  const { parent_whatsapp_opt_in: _consent, parent_language: _language, ...record } = student;
  return { ...record, ...form };
}

/** The family's WhatsApp consent and language, and the last change of the consent, as a record holds them. */
export type FamilyChoices = Pick<
  Student,
  | 'parent_whatsapp_opt_in'
  | 'parent_language'
  | 'parent_whatsapp_opt_in_changed_at'
  | 'parent_whatsapp_opt_in_changed_by'
>;

const NEW_FAMILY: FamilyChoices = {
  parent_whatsapp_opt_in: false,
  parent_language: 'en',
  parent_whatsapp_opt_in_changed_at: null,
  parent_whatsapp_opt_in_changed_by: null,
};

/**
 * The family a record with this parent phone belongs to, as far as the loaded list knows, and its other
 * children: the record's own consent and language while its phone stays; another family's when the
 * phone is already theirs; the record's own on a phone nobody has (Edit), or a new family's (Add).
 */
export function familyFor(
  phone: string,
  student: Student | undefined,
  known: readonly Student[] | undefined,
  defaultCountryCode?: string,
): { choices: FamilyChoices; children: string[] } {
  // Read as the server will store it: with the centre's country code for a number written without one.
  const normalised = normalisePhone(phone, defaultCountryCode) ?? student?.parent_phone;
  const others = (known ?? []).filter((other) => other.parent_phone === normalised && other.id !== student?.id);
  const children = others.map((other) => other.full_name);
  if (student && normalised === student.parent_phone) return { choices: student, children };
  return { choices: others[0] ?? student ?? NEW_FAMILY, children };
}
