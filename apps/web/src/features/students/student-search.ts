import type { Student } from '@tuitiondesk/contract';

type Searchable = Pick<Student, 'full_name' | 'unique_id' | 'class_name' | 'parent_name' | 'parent_phone'>;

/**
 * The students a search shows: case-insensitive, matching full name, student id, class, parent name or
 * parent phone. A blank search shows everyone.
 */
export function filterStudents<T extends Searchable>(students: readonly T[], search: string): readonly T[] {
  const needle = search.trim().toLowerCase();
  if (!needle) return students;
  return students.filter(
    (student) =>
      student.full_name.toLowerCase().includes(needle) ||
      student.unique_id.toLowerCase().includes(needle) ||
      student.class_name.toLowerCase().includes(needle) ||
      student.parent_name.toLowerCase().includes(needle) ||
      student.parent_phone.toLowerCase().includes(needle),
  );
}
