import type { Student } from '@tuitiondesk/contract';

export interface StudentForm {
  full_name: string;
  class_name: string;
  parent_name: string;
  parent_phone: string;
}

export const emptyStudentForm: StudentForm = { full_name: '', class_name: '', parent_name: '', parent_phone: '' };

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
