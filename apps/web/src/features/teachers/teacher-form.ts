import type { CreateTeacherRequest, Subject, Teacher } from '@tuitiondesk/contract';

/** What the teacher dialog edits, as the fields hold it (experience is text until saved). */
export interface TeacherForm {
  first_name: string;
  last_name: string;
  email: string;
  phone_number: string;
  subjects: Subject[];
  classes_assigned: string[];
  qualification: string;
  experience_years: string;
  address: string;
  emergency_contact: string;
}

export const emptyTeacherForm: TeacherForm = {
  first_name: '',
  last_name: '',
  email: '',
  phone_number: '',
  subjects: [],
  classes_assigned: [],
  qualification: '',
  experience_years: '',
  address: '',
  emergency_contact: '',
};

/** full_name is the first and last name joined by a space. */
export function joinFullName(firstName: string, lastName: string): string {
  return [firstName.trim(), lastName.trim()].filter(Boolean).join(' ');
}

/** Editing splits full_name on its first space: the first name before it, the last name after. */
export function splitFullName(fullName: string): { first_name: string; last_name: string } {
  const trimmed = fullName.trim();
  const space = trimmed.indexOf(' ');
  if (space < 0) return { first_name: trimmed, last_name: '' };
  return { first_name: trimmed.slice(0, space), last_name: trimmed.slice(space + 1).trim() };
}

/** Experience is parsed as an integer, 0 when it is not numeric. */
export function parseExperienceYears(value: string | number | null | undefined): number {
  const years = Number.parseInt(String(value ?? ''), 10);
  return Number.isNaN(years) ? 0 : years;
}

/** Save needs first and last name, phone, one subject and one assigned class. */
export function canSaveTeacher(form: TeacherForm): boolean {
  return (
    form.first_name.trim() !== '' &&
    form.last_name.trim() !== '' &&
    form.phone_number.trim() !== '' &&
    form.subjects.length > 0 &&
    form.classes_assigned.length > 0
  );
}

export function formFromTeacher(teacher: Teacher): TeacherForm {
  // The record keeps first and last name apart; they are used when they still make up full_name,
  // so a two-word first name survives an edit. Otherwise full_name is split on its first space.
  const stored = joinFullName(teacher.first_name ?? '', teacher.last_name ?? '');
  const names =
    teacher.first_name && teacher.last_name && stored === teacher.full_name.trim()
      ? { first_name: teacher.first_name, last_name: teacher.last_name }
      : splitFullName(teacher.full_name);
  return {
    ...names,
    email: teacher.email ?? '',
    phone_number: teacher.phone_number,
    // The server only stores subjects of the contract's list.
    subjects: [...teacher.subjects] as Subject[],
    classes_assigned: [...teacher.classes_assigned],
    qualification: teacher.qualification ?? '',
    experience_years: String(teacher.experience_years ?? 0),
    address: teacher.address ?? '',
    emergency_contact: teacher.emergency_contact ?? '',
  };
}

export type TeacherRequest = CreateTeacherRequest & {
  full_name: string;
  subjects: Subject[];
  classes_assigned: string[];
  experience_years: number;
};

/** The body of the create and update calls: the teacher's fields plus full_name. */
export function teacherRequest(form: TeacherForm): TeacherRequest {
  return {
    first_name: form.first_name.trim(),
    last_name: form.last_name.trim(),
    full_name: joinFullName(form.first_name, form.last_name),
    email: form.email.trim() === '' ? null : form.email.trim(),
    phone_number: form.phone_number.trim(),
    subjects: form.subjects,
    classes_assigned: form.classes_assigned,
    qualification: form.qualification.trim(),
    experience_years: parseExperienceYears(form.experience_years),
    address: form.address,
    emergency_contact: form.emergency_contact.trim(),
  };
}
