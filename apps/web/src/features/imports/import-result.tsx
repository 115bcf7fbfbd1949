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
import { DataTable } from '../../components/data-table';
import { saveFile } from '../../lib/api-client';
import { csvBlob } from '../../lib/csv';
import { todayIso } from '../../lib/dates';
import type { AnyImportResult, ImportKind } from './api';
import { buildAccountsCsv, type ImportedTeacher } from './import-files';

const ACCOUNT_HEADINGS = ['Name', 'Username', 'Initial Password'];

/** Beyond this many, the imported list says how many more there are rather than listing them all. */
export const SHOWN_RECORDS = 200;

interface ImportedRow {
  key: string;
  name: string;
  detail: string;
}

function importedRows(result: AnyImportResult): ImportedRow[] {
  if ('imported_students' in result) {
    return result.imported_students.map((student, index) => ({
      key: student.unique_id ?? `row-${index}`,
      name: student.name,
      detail: `${student.phone} · Class ${student.class_name}`,
    }));
  }
  return result.imported_teachers.map((teacher, index) => ({
    key: teacher.unique_id ?? `row-${index}`,
    name: teacher.name,
    detail: `${teacher.phone} · ${teacher.email}`,
  }));
}

const scrollBox = { maxHeight: 260, overflowY: 'auto' } as const;

interface ListedRow {
  key: string;
  primary: string;
  secondary?: string;
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
              <ListItemText secondary={`…and ${rows.length - shown} more`} />
            </ListItem>
          )}
        </List>
      </Paper>
    </Box>
  );
}

export function RowErrors({ kind, errors, dryRun }: { kind: ImportKind; errors: ImportRowError[]; dryRun: boolean }) {
  return (
    <RowList
      heading={
        dryRun
          ? `${errors.length} row(s) have errors and would be skipped`
          : `${errors.length} row(s) had errors and were skipped`
      }
      headingColor="error"
      region={`Row errors, ${kind}`}
      label="Row errors"
      // Every error is listed: each is a row to fix.
      shown={errors.length}
      rows={errors.map((error) => ({
        key: `${error.row}: ${error.error}`,
        primary: `Row ${error.row}: ${error.error}`,
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
  return (
    <RowList
      heading={
        dryRun
          ? `${rows.length} row(s) are already imported and would be left as they are`
          : `${rows.length} row(s) were already imported and were left as they are`
      }
      region={`Already imported, ${kind}`}
      label="Rows already imported"
      rows={rows.map((row) => ({
        key: String(row.row),
        primary: `Row ${row.row}: ${row.name}`,
        secondary: `On record as ${row.unique_id}`,
      }))}
    />
  );
}

function TeacherAccounts({ teachers }: { teachers: ImportedTeacher[] }) {
  const withPassword = teachers.filter((teacher) => teacher.initial_password);
  if (withPassword.length === 0) return null;
  const download = () => saveFile(csvBlob(buildAccountsCsv(withPassword)), `teacher_accounts_${todayIso()}.csv`);
  return (
    <Box sx={{ mt: 2 }}>
      <Alert severity="warning" sx={{ mb: 1 }}>
        These initial passwords are shown only once and cannot be read again. Download them or write them down now, and
        hand each teacher their own. Each teacher must choose a new password at first sign-in.
      </Alert>
      <Button size="small" variant="outlined" startIcon={<DownloadIcon />} onClick={download} sx={{ mb: 1 }}>
        Download passwords (CSV)
      </Button>
      <DataTable
        label="Teacher sign-in accounts"
        labels={ACCOUNT_HEADINGS}
        region="Teacher accounts list"
        outlined
        stickyHeader
        boxSx={scrollBox}
      >
        {withPassword.map((teacher) => (
          <TableRow key={teacher.username ?? teacher.email}>
            <TableCell>{teacher.name}</TableCell>
            <TableCell>{teacher.username}</TableCell>
            <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>{teacher.initial_password}</TableCell>
          </TableRow>
        ))}
      </DataTable>
    </Box>
  );
}

/** What an import (or a check) answered: the message, the records, every row error, new accounts. */
export function ImportResult({ kind, result }: { kind: ImportKind; result: AnyImportResult }) {
  const rows = importedRows(result);
  const noun = kind === 'students' ? 'student(s)' : 'teacher(s)';
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
      <Alert severity={severity}>{result.message}</Alert>
      <RowList
        heading={result.dry_run ? `Would import ${rows.length} ${noun}` : `Imported ${rows.length} ${noun}`}
        region={`Records, ${kind}`}
        label={result.dry_run ? 'Records to import' : 'Imported records'}
        rows={rows.map((row) => ({ key: row.key, primary: row.name, secondary: row.detail }))}
      />
      <AlreadyImportedRows kind={kind} rows={result.already_imported} dryRun={result.dry_run} />
      <RowErrors kind={kind} errors={result.errors} dryRun={result.dry_run} />
      {'imported_teachers' in result && !result.dry_run && <TeacherAccounts teachers={result.imported_teachers} />}
    </Box>
  );
}
