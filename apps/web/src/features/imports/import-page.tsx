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
import { type TFunction, useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { useDefaultCountryCode } from '../../lib/phone-settings';
import { type ClearAllResult, useClearAllData } from './api';
import { ImportCard } from './import-card';

export function clearAllSummary(t: TFunction<'imports'>, result: ClearAllResult): string {
  return t('page.cleared', {
    students: result.students.deleted_count,
    teachers: result.teachers.deleted_teachers,
    users: result.teachers.deleted_users,
  });
}

/**
 * Where the data went: the backup the first call took, before anything was deleted, and how to bring
 * it back (the restore runs on the server machine, into an empty database).
 */
export function clearAllBackupNote(t: TFunction<'imports'>, result: ClearAllResult): string {
  return t('page.backupNote', { file: result.students.backup_file });
}

/** What the Import Instructions card lists; phones are read with the centre's default country code. */
function instructions(t: TFunction<'imports'>, countryCode: string | undefined) {
  return [
    { primary: t('instructions.classes'), secondary: t('instructions.classesText') },
    {
      primary: countryCode ? t('instructions.phones', { code: countryCode }) : t('instructions.phonesCentre'),
      secondary: t('instructions.phonesText'),
    },
    { primary: t('instructions.emails'), secondary: t('instructions.emailsText') },
    { primary: t('instructions.columns'), secondary: t('instructions.columnsText') },
    { primary: t('instructions.family'), secondary: t('instructions.familyText') },
    { primary: t('instructions.check'), secondary: t('instructions.checkText') },
  ];
}

/** Import Data: students and teachers from Excel files, and clearing all of them. */
export default function ImportPage() {
  const { t } = useTranslation('imports');
  const clearAll = useClearAllData();
  const countryCode = useDefaultCountryCode();

  const runClearAll = () => {
    if (!window.confirm(t('page.confirmClear'))) return;
    clearAll.mutate();
  };

  return (
    <Box>
      <PageHeader
        title={t('page.title')}
        subtitle={t('page.subtitle')}
        action={
          <Button
            variant="outlined"
            color="error"
            startIcon={<DeleteForeverIcon />}
            onClick={runClearAll}
            disabled={clearAll.isPending}
          >
            {clearAll.isPending ? t('page.clearing') : t('page.clearAll')}
          </Button>
        }
      />

      {clearAll.isSuccess && (
        <Alert severity="success" sx={{ mb: 2 }} onClose={() => clearAll.reset()}>
          <Typography variant="body2">{clearAllSummary(t, clearAll.data)}</Typography>
          <Typography variant="body2" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
            {clearAllBackupNote(t, clearAll.data)}
          </Typography>
        </Alert>
      )}
      {clearAll.isError && (
        <Alert severity="error" sx={{ mb: 2 }} onClose={() => clearAll.reset()}>
          {errorText(clearAll.error, t('page.clearFailed'))}
        </Alert>
      )}

      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 6 }}>
          <ImportCard kind="students" title={t('page.students')} description={t('page.studentsText')} />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <ImportCard kind="teachers" title={t('page.teachers')} description={t('page.teachersText')} />
        </Grid>
        <Grid size={12}>
          <Card variant="outlined">
            <CardHeader title={t('page.instructions')} slotProps={{ title: { component: 'h3', variant: 'h6' } }} />
            <CardContent sx={{ pt: 0 }}>
              <List dense disablePadding>
                {instructions(t, countryCode).map((item) => (
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
