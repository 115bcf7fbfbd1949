import DeleteForeverIcon from '@mui/icons-material/DeleteForever';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  Grid,
  List,
  ListItem,
  ListItemText,
  Typography,
} from '@mui/material';
import { PageHeader } from '../../components/page-header';
import { errorText } from '../../lib/api-client';
import { useDefaultCountryCode } from '../../lib/phone-settings';
import { type ClearAllResult, useClearAllData } from './api';
import { ImportCard } from './import-card';

export const CLEAR_ALL_CONFIRMATION =
  'Are you sure you want to clear all data? This deletes ALL students and teachers, with their attendance records and teacher sign-in accounts. This cannot be undone.';

export function clearAllSummary(result: ClearAllResult): string {
  return `Deleted ${result.students.deleted_count} student(s), ${result.teachers.deleted_teachers} teacher(s) and ${result.teachers.deleted_users} teacher user account(s).`;
}

/**
 * Where the data went: the backup the first call took, before anything was deleted, and how to bring
 * it back (the restore runs on the server machine, into an empty database).
 */
export function clearAllBackupNote(result: ClearAllResult): string {
  const file = result.students.backup_file;
  return `A backup of all data was saved first, on the server: ${file}. To bring it back, restore it into an empty database on the server: npm run restore ${file}`;
}

/** What the Import Instructions card lists; phones are read with the centre's default country code. */
function instructions(countryCode: string | undefined) {
  return [
    {
      primary: 'Class names are 7, 8, 9 or 10, without sections.',
      secondary: 'Write 7, not 7A or 7-B. "Class 7" and "7th" are read as 7.',
    },
    {
      primary: `Phone numbers without a country code take ${countryCode ?? "the centre's"}.`,
      secondary:
        'For example 98123 45670, 098123-45670 or +91 98123 45670; spaces, dashes and brackets are fine. Admins set the code on the Students screen.',
    },
    {
      primary: 'Teacher emails must be valid and unique.',
      secondary: 'A teacher whose email is already on record is reported, not imported twice.',
    },
    {
      primary: 'Required columns',
      secondary:
        'Students: first_name, last_name, class_name, parent_phone. Teachers: first_name, last_name, email, phone_number. Start from the template.',
    },
    {
      primary: "The family's WhatsApp consent and language",
      secondary:
        "Optional student columns: parent_whatsapp_opt_in (yes or no) and parent_language (en, hi, mr, ta, bn or ur, or the language's name). They apply to every child with that parent phone; empty cells keep the family's as they are, and of two rows for one family the later wins.",
    },
    {
      primary: 'Check the file first',
      secondary:
        'Check file shows what would be imported and every row error without writing anything. Rows with errors are skipped on upload and listed with their row number.',
    },
  ];
}

/** Import Data: students and teachers from Excel files, and clearing all of them. */
export default function ImportPage() {
  const clearAll = useClearAllData();
  const countryCode = useDefaultCountryCode();

  const runClearAll = () => {
    if (!window.confirm(CLEAR_ALL_CONFIRMATION)) return;
    clearAll.mutate();
  };

  return (
    <Box>
      <PageHeader
        title="Import Data"
        subtitle="Add students and teachers in bulk from Excel spreadsheets."
        action={
          <Button
            variant="outlined"
            color="error"
            startIcon={<DeleteForeverIcon />}
            onClick={runClearAll}
            disabled={clearAll.isPending}
          >
            {clearAll.isPending ? 'Clearing...' : 'Clear All Data'}
          </Button>
        }
      />

      {clearAll.isSuccess && (
        <Alert severity="success" sx={{ mb: 2 }} onClose={() => clearAll.reset()}>
          <Typography variant="body2">{clearAllSummary(clearAll.data)}</Typography>
          <Typography variant="body2" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
            {clearAllBackupNote(clearAll.data)}
          </Typography>
        </Alert>
      )}
      {clearAll.isError && (
        <Alert severity="error" sx={{ mb: 2 }} onClose={() => clearAll.reset()}>
          {errorText(clearAll.error, 'Failed to clear data')}
        </Alert>
      )}

      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 6 }}>
          <ImportCard kind="students" title="Import Students" description="Students with their class and parent." />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <ImportCard kind="teachers" title="Import Teachers" description="Teachers, each with a sign-in account." />
        </Grid>
        <Grid size={12}>
          <Card variant="outlined">
            <CardHeader title="Import Instructions" slotProps={{ title: { component: 'h3', variant: 'h6' } }} />
            <CardContent sx={{ pt: 0 }}>
              <List dense disablePadding>
                {instructions(countryCode).map((item) => (
                  <ListItem key={item.primary} disableGutters>
                    <ListItemText primary={item.primary} secondary={item.secondary} />
                  </ListItem>
                ))}
              </List>
            </CardContent>
          </Card>
        </Grid>
      </Grid>
    </Box>
  );
}
