import DeleteForeverIcon from '@mui/icons-material/DeleteForever';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { type TFunction, useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { type ClearAllResult, useClearAllData } from './api';

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

/**
 * Clear All Data, at the bottom of Import (issue 28, item 11), set apart as a danger zone so it is
 * never the first button on the page. Its confirmation, in the language in use, says what goes and
 * that the server takes a backup first (each clear-all call writes one before it deletes, and deletes
 * nothing when it cannot).
 */
export function DangerZone() {
  const { t } = useTranslation('imports');
  const clearAll = useClearAllData();
  const [asking, setAsking] = useState(false);

  const confirm = () => {
    setAsking(false);
    clearAll.mutate();
  };

  return (
    <Box component="section" aria-labelledby="danger-zone-title" sx={{ mt: 4 }}>
      <Card variant="outlined" sx={{ borderColor: 'error.main' }}>
        <CardContent>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
            <WarningAmberIcon color="error" aria-hidden />
            <Typography id="danger-zone-title" variant="h6" component="h3" color="error">
              {t('danger.title')}
            </Typography>
          </Stack>
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={2}
            sx={{ justifyContent: 'space-between', alignItems: { xs: 'stretch', sm: 'center' } }}
          >
            <Box>
              <Typography sx={{ fontWeight: 600 }}>{t('page.clearAll')}</Typography>
              <Typography variant="body2" color="text.secondary">
                {t('danger.text')}
              </Typography>
            </Box>
            <Button
              variant="outlined"
              color="error"
              startIcon={<DeleteForeverIcon />}
              onClick={() => setAsking(true)}
              disabled={clearAll.isPending}
              sx={{ flexShrink: 0 }}
            >
              {clearAll.isPending ? t('page.clearing') : t('page.clearAll')}
            </Button>
          </Stack>
          {clearAll.isSuccess && (
            <Alert severity="success" sx={{ mt: 2 }} onClose={() => clearAll.reset()}>
              <Typography variant="body2">{clearAllSummary(t, clearAll.data)}</Typography>
              <Typography variant="body2" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
                {clearAllBackupNote(t, clearAll.data)}
              </Typography>
            </Alert>
          )}
          {clearAll.isError && (
            <Alert severity="error" sx={{ mt: 2 }} onClose={() => clearAll.reset()}>
              {errorText(clearAll.error, t('page.clearFailed'))}
            </Alert>
          )}
        </CardContent>
      </Card>
      <Dialog open={asking} onClose={() => setAsking(false)} aria-labelledby="clear-all-title">
        <DialogTitle id="clear-all-title">{t('danger.confirmTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('page.confirmClear')}</DialogContentText>
          <Alert severity="info">{t('danger.backupFirst')}</Alert>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setAsking(false)} autoFocus>
            {t('danger.cancel')}
          </Button>
          <Button variant="contained" color="error" onClick={confirm}>
            {t('page.clearAll')}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
