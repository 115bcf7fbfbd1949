import { IMPORT_EXTENSIONS, type TeacherImportResult } from '@tuitiondesk/contract';
import { i18n } from '../../i18n';
import { buildCsv } from '../../lib/csv';

export const ACCEPT = IMPORT_EXTENSIONS.join(',');

/** Only Excel files are taken: a file name must end in .xlsx or .xls (any case). */
export function isExcelFileName(name: string): boolean {
  const lower = name.toLowerCase();
  return IMPORT_EXTENSIONS.some((extension) => lower.endsWith(extension));
}

export type ImportedTeacher = TeacherImportResult['imported_teachers'][number];

/**
 * The teachers' first sign-in details, for the admin to hand over: shown once, so offered as a file,
 * its headings in the language in use.
 */
export function buildAccountsCsv(teachers: readonly ImportedTeacher[]): string {
  return buildCsv(
    [
      i18n.t('imports:csv.name'),
      i18n.t('imports:csv.teacherId'),
      i18n.t('imports:csv.username'),
      i18n.t('imports:csv.password'),
      i18n.t('imports:csv.email'),
    ],
    teachers
      .filter((teacher) => teacher.initial_password)
      .map((teacher) => [teacher.name, teacher.unique_id, teacher.username, teacher.initial_password, teacher.email]),
  );
}

export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
