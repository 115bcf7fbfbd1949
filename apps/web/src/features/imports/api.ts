import { useMutation } from '@tanstack/react-query';
import type {
  StudentImportResult,
  StudentsClearAllResult,
  TeacherImportResult,
  TeachersClearAllResult,
} from '@tuitiondesk/contract';
import { apiDownload, apiRequest, saveFile } from '../../lib/api-client';

export type ImportKind = 'students' | 'teachers';

export type ImportResultOf<K extends ImportKind> = K extends 'students' ? StudentImportResult : TeacherImportResult;
export type AnyImportResult = StudentImportResult | TeacherImportResult;

export const TEMPLATE_NAMES: Record<ImportKind, string> = {
  students: 'student_import_template.xlsx',
  teachers: 'teacher_import_template.xlsx',
};

export function useDownloadTemplate(kind: ImportKind) {
  return useMutation({
    mutationFn: async () => {
      const file = await apiDownload(`/import/${kind}/template`, TEMPLATE_NAMES[kind]);
      saveFile(file.blob, file.filename);
    },
  });
}

export interface ImportRequest {
  file: File;
  /** Checks the file and answers what would be imported, writing nothing. */
  dryRun: boolean;
}

export function useImportFile(kind: ImportKind) {
  return useMutation({
    mutationFn: ({ file, dryRun }: ImportRequest) => {
      const body = new FormData();
      body.append('file', file);
      return apiRequest<AnyImportResult>(`/import/${kind}/import`, {
        method: 'POST',
        body,
        query: dryRun ? { dry_run: true } : undefined,
      });
    },
  });
}

export interface ClearAllResult {
  students: StudentsClearAllResult;
  teachers: TeachersClearAllResult;
}

/**
 * Students first (with their attendance), then teachers with their attendance and accounts. Each call
 * takes a backup on the server before deleting; the first one holds everything as it was.
 */
export function useClearAllData() {
  return useMutation({
    mutationFn: async (): Promise<ClearAllResult> => {
      const students = await apiRequest<StudentsClearAllResult>('/students/clear-all', { method: 'DELETE' });
      const teachers = await apiRequest<TeachersClearAllResult>('/teachers/clear-all', { method: 'DELETE' });
      return { students, teachers };
    },
  });
}
