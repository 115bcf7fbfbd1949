import {
  Alert,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Skeleton,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { type MarkingRules, TEACHER_MARK_DAYS_BACK_MAX } from '@tuitiondesk/contract';
import { useState } from 'react';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { useMarkingRules, useUpdateMarkingRules } from './api';

/** The number typed, when it is one the server accepts. */
export function parseDaysBack(text: string): number | undefined {
  if (!/^\d{1,2}$/.test(text.trim())) return undefined;
  const days = Number(text.trim());
  return days <= TEACHER_MARK_DAYS_BACK_MAX ? days : undefined;
}

function RulesForm({ rules, onClose }: { rules: MarkingRules; onClose: () => void }) {
  const { t } = useTranslation('attendance');
  const { showToast } = useToast();
  const update = useUpdateMarkingRules();
  const [daysBack, setDaysBack] = useState(String(rules.teacher_mark_days_back));
  const [anyClass, setAnyClass] = useState(rules.teachers_mark_any_class);
  const [touched, setTouched] = useState(false);
  const days = parseDaysBack(daysBack);
  const showProblem = touched && days === undefined;

  const save = () => {
    setTouched(true);
    if (days === undefined) return;
    update.mutate(
      { teacher_mark_days_back: days, teachers_mark_any_class: anyClass },
      {
        onSuccess: () => {
          showToast(t('rules.saved'), 'success');
          onClose();
        },
      },
    );
  };

  return (
    <>
      <DialogContent>
        <Stack spacing={2.5} sx={{ pt: 1 }}>
          <Typography variant="body2" color="text.secondary">
            {t('rules.intro')}
          </Typography>
          <TextField
            label={t('rules.daysBack')}
            value={daysBack}
            onChange={(event) => setDaysBack(event.target.value)}
            onBlur={() => setTouched(true)}
            error={showProblem}
            helperText={
              showProblem ? t('rules.daysBackProblem', { max: TEACHER_MARK_DAYS_BACK_MAX }) : t('rules.daysBackHelp')
            }
            slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 2 } }}
            size="small"
            sx={{ maxWidth: 260 }}
          />
          <FormControlLabel
            sx={{ m: 0, gap: 1, alignItems: 'flex-start' }}
            control={<Switch checked={anyClass} onChange={(_event, next) => setAnyClass(next)} />}
            label={
              <span>
                <Typography component="span" sx={{ display: 'block' }}>
                  {t('rules.anyClass')}
                </Typography>
                <Typography component="span" variant="body2" color="text.secondary">
                  {t('rules.anyClassHelp')}
                </Typography>
              </span>
            }
          />
          {update.isError && <Alert severity="error">{errorText(update.error, t('rules.saveFailed'))}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('rules.cancel')}</Button>
        <Button
          variant="contained"
          onClick={save}
          disabled={update.isPending}
          startIcon={update.isPending ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
        >
          {t('rules.save')}
        </Button>
      </DialogActions>
    </>
  );
}

/** Admins only: the centre's two marking rules (ADR 019). */
export function MarkingRulesDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('attendance');
  const rules = useMarkingRules(open);
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="marking-rules-title">
      <DialogTitle id="marking-rules-title">{t('rules.title')}</DialogTitle>
      {rules.isSuccess ? (
        // Keyed by the rules: opened again after a change, the form starts from what is saved.
        <RulesForm key={JSON.stringify(rules.data)} rules={rules.data} onClose={onClose} />
      ) : (
        <DialogContent>
          {rules.isError ? (
            <Alert severity="error">{errorText(rules.error, t('rules.loadFailed'))}</Alert>
          ) : (
            <Stack spacing={2} sx={{ pt: 1 }} aria-busy>
              <Skeleton height={40} />
              <Skeleton height={40} />
            </Stack>
          )}
        </DialogContent>
      )}
    </Dialog>
  );
}
