import DownloadIcon from '@mui/icons-material/Download';
import {
  Alert,
  Box,
  Button,
  List,
  ListItem,
  ListItemText,
  Paper,
  TableCell,
  TableRow,
  Typography,
} from '@mui/material';
import type { AlreadyImported, ImportRowError } from '@tuitiondesk/contract';
import type { ReactNode } from 'react';
import { DataTable } from '../../components/data-table';
import { DataSentence, LtrText, NameText } from '../../components/data-text';
import { type TFunction, useTranslation } from '../../i18n';
import { saveFile } from '../../lib/api-client';
import { classInWords, useClassChoices } from '../../lib/centre-classes';
import { csvBlob } from '../../lib/csv';
import { todayIso } from '../../lib/dates';
import { serverMessage } from '../../lib/server-words';
import type { AnyImportResult, ImportKind } from './api';
import { buildAccountsCsv, type ImportedTeacher } from './import-files';

/** Beyond this many, the imported list says how many more there are rather than listing them all. */
export const SHOWN_RECORDS = 200;

interface ImportedRow {
  key: string;
  name: ReactNode;
  detail: ReactNode;
}

/**
 * A class as the import names it: the spec's "Class 7" in the language in use, a class the centre
 * labelled itself ("Morning batch", ADR 043) as written, never "Class Morning batch".
 */
function useClassText(): (value: string) => string {
  const { t } = useTranslation('imports');
  const { labelOf } = useClassChoices();
  return (value) => classInWords(value, labelOf(value), (name) => t('result.className', { name }));
}

/** Names cut at their end, phones, ids and addresses left to right, in either direction (ADR 048). */
function importedRows(
  t: TFunction<'imports'>,
  classText: (value: string) => string,
  result: AnyImportResult,
): ImportedRow[] {
  if ('imported_students' in result) {
    return result.imported_students.map((student, index) => ({
      key: student.unique_id ?? `row-${index}`,
      name: <NameText title={student.name}>{student.name}</NameText>,
      detail: (
        <DataSentence
          text={(stand) => t('result.studentDetail', stand)}
          data={{ phone: <LtrText>{student.phone}</LtrText>, class: <bdi>{classText(student.class_name)}</bdi> }}
        />
      ),
    }));
  }
  return result.imported_teachers.map((teacher, index) => ({
    key: teacher.unique_id ?? `row-${index}`,
    name: <NameText title={teacher.name}>{teacher.name}</NameText>,
    detail: (
      <>
        <LtrText>{teacher.phone}</LtrText> · <LtrText>{teacher.email}</LtrText>
      </>
    ),
  }));
}

const scrollBox = { maxHeight: 260, overflowY: 'auto' } as const;

interface ListedRow {
  key: string;
  primary: ReactNode;
  secondary?: ReactNode;
}

/** A headed, scrolling list of rows (records, errors): the first `shown` of them, then how many more. */
function RowList({
  heading,
  headingColor,
  region,
  label,
  rows,
  shown = SHOWN_RECORDS,
}: {
  heading: string;
  headingColor?: 'error';
  region: string;
  label: string;
  rows: ListedRow[];
  shown?: number;
}) {
  const { t } = useTranslation('imports');
  if (rows.length === 0) return null;
  return (
    <Box sx={{ mt: 2 }}>
      <Typography variant="subtitle2" component="h4" color={headingColor}>
        {heading}
      </Typography>
      <Paper variant="outlined" sx={scrollBox} tabIndex={0} role="region" aria-label={region}>
        <List dense disablePadding aria-label={label}>
          {rows.slice(0, shown).map((row) => (
            <ListItem key={row.key} divider>
              <ListItemText primary={row.primary} secondary={row.secondary} />
            </ListItem>
          ))}
          {rows.length > shown && (
            <ListItem>
              <ListItemText secondary={t('result.more', { count: rows.length - shown })} />
            </ListItem>
          )}
        </List>
      </Paper>
    </Box>
  );
}

export function RowErrors({ kind, errors, dryRun }: { kind: ImportKind; errors: ImportRowError[]; dryRun: boolean }) {
  const { t } = useTranslation('imports');
  return (
    <RowList
      heading={
        dryRun ? t('result.errorsWould', { count: errors.length }) : t('result.errorsWere', { count: errors.length })
      }
      headingColor="error"
      region={kind === 'students' ? t('result.errorsRegionStudents') : t('result.errorsRegionTeachers')}
      label={t('result.errorsLabel')}
      // Every error is listed: each is a row to fix.
      shown={errors.length}
      rows={errors.map((error) => ({
        key: `${error.row}: ${error.error}`,
        primary: t('result.rowError', { row: error.row, error: error.error }),
      }))}
    />
  );
}

/**
 * Rows whose record is on record already (a file imported again): not errors, so listed apart from
 * them, in the page's own colour, with the record each one matched.
 */
export function AlreadyImportedRows({
  kind,
  rows,
  dryRun,
}: {
  kind: ImportKind;
  rows: AlreadyImported[];
  dryRun: boolean;
}) {
  const { t } = useTranslation('imports');
  return (
    <RowList
      heading={
        dryRun ? t('result.alreadyWould', { count: rows.length }) : t('result.alreadyWere', { count: rows.length })
      }
      region={kind === 'students' ? t('result.alreadyRegionStudents') : t('result.alreadyRegionTeachers')}
      label={t('result.alreadyLabel')}
      rows={rows.map((row) => ({
        key: String(row.row),
        primary: (
          <DataSentence
            text={(stand) => t('result.rowName', { row: row.row, ...stand })}
            data={{ name: <bdi>{row.name}</bdi> }}
          />
        ),
        secondary: (
          <DataSentence
            text={(stand) => t('result.onRecord', stand)}
            data={{ id: <LtrText>{row.unique_id}</LtrText> }}
          />
        ),
      }))}
    />
  );
}

function TeacherAccounts({ teachers }: { teachers: ImportedTeacher[] }) {
  const { t } = useTranslation('imports');
  const withPassword = teachers.filter((teacher) => teacher.initial_password);
  if (withPassword.length === 0) return null;
  const download = () => saveFile(csvBlob(buildAccountsCsv(withPassword)), `teacher_accounts_${todayIso()}.csv`);
  return (
    <Box sx={{ mt: 2 }}>
      <Alert severity="warning" sx={{ mb: 1 }}>
        {t('result.passwordsOnce')}
      </Alert>
      <Button size="small" variant="outlined" startIcon={<DownloadIcon />} onClick={download} sx={{ mb: 1 }}>
        {t('result.downloadPasswords')}
      </Button>
      <DataTable
        label={t('result.accountsLabel')}
        labels={[
          t('result.accountHeadings.name'),
          t('result.accountHeadings.username'),
          t('result.accountHeadings.password'),
        ]}
        region={t('result.accountsRegion')}
        outlined
        stickyHeader
        boxSx={scrollBox}
      >
        {withPassword.map((teacher) => (
          <TableRow key={teacher.username ?? teacher.email}>
            <TableCell>
              <NameText title={teacher.name}>{teacher.name}</NameText>
            </TableCell>
            <TableCell>
              <LtrText>{teacher.username}</LtrText>
            </TableCell>
            <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
              <LtrText>{teacher.initial_password}</LtrText>
            </TableCell>
          </TableRow>
        ))}
      </DataTable>
    </Box>
  );
}

/**
 * The import's message in the language in use: in English the server's own words; otherwise worded
 * here from the counts as the server words it (what was or would be imported, rows already imported,
 * rows with errors, and that a check saved nothing).
 */
export function resultNotice(t: TFunction<'imports'>, kind: ImportKind, result: AnyImportResult): string {
  return serverMessage(result.message, () => {
    const students = kind === 'students';
    const imported = result.imported_count;
    const already = result.already_imported.length;
    const errors = result.errors.length;
    const headline =
      imported === 0
        ? result.dry_run
          ? t(students ? 'result.notice.checkNoStudents' : 'result.notice.checkNoTeachers')
          : t(students ? 'result.notice.noStudents' : 'result.notice.noTeachers')
        : result.dry_run
          ? t(students ? 'result.notice.checkStudents' : 'result.notice.checkTeachers', { count: imported })
          : t(students ? 'result.notice.importedStudents' : 'result.notice.importedTeachers', { count: imported });
    return [
      headline,
      already > 0 && t(result.dry_run ? 'result.notice.alreadyWould' : 'result.notice.alreadyWere', { count: already }),
      errors > 0 && t(result.dry_run ? 'result.notice.errorsWould' : 'result.notice.errorsWere', { count: errors }),
      result.dry_run && t('result.notice.nothingSaved'),
    ]
      .filter(Boolean)
      .join(' ');
  });
}

/** What an import (or a check) answered: the message, the records, every row error, new accounts. */
export function ImportResult({ kind, result }: { kind: ImportKind; result: AnyImportResult }) {
  const { t } = useTranslation('imports');
  const classText = useClassText();
  const rows = importedRows(t, classText, result);
  const count = rows.length;
  // The new teachers' first sign-in details, after a real import (a check creates no account).
  const newTeachers = 'imported_teachers' in result && !result.dry_run ? result.imported_teachers : null;
  const heading =
    kind === 'students'
      ? result.dry_run
        ? t('result.wouldImportStudents', { count })
        : t('result.importedStudents', { count })
      : result.dry_run
        ? t('result.wouldImportTeachers', { count })
        : t('result.importedTeachers', { count });
  // Nothing new and nothing wrong (the same file again) is news, not a success nor a problem.
  const severity = result.dry_run
    ? 'info'
    : result.errors.length > 0
      ? 'warning'
      : rows.length === 0 && result.already_imported.length > 0
        ? 'info'
        : 'success';
  return (
    <Box aria-live="polite">
      <Alert severity={severity}>{resultNotice(t, kind, result)}</Alert>
      <RowList
        heading={heading}
        region={kind === 'students' ? t('result.recordsRegionStudents') : t('result.recordsRegionTeachers')}
        label={result.dry_run ? t('result.toImport') : t('result.imported')}
        rows={rows.map((row) => ({ key: row.key, primary: row.name, secondary: row.detail }))}
      />
      <AlreadyImportedRows kind={kind} rows={result.already_imported} dryRun={result.dry_run} />
      <RowErrors kind={kind} errors={result.errors} dryRun={result.dry_run} />
      {newTeachers && <TeacherAccounts teachers={newTeachers} />}
    </Box>
  );
}
