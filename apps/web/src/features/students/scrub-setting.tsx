import { Button, Paper, Stack, TextField, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { englishText, useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { useStudentSettings, useUpdateStudentSettings } from './api';

/** The months field's name in English (the words tests look for). */
export const SCRUB_MONTHS_LABEL = englishText('students:scrub.months');

/**
 * The centre's scrub_left_after_months, beside the students it applies to. Admins only; the server
 * checks the number (422 names what to fix) and the page shows its words.
 */
export function ScrubSetting() {
  const { t } = useTranslation('students');
  const { showToast } = useToast();
  const settings = useStudentSettings(true);
  const update = useUpdateStudentSettings();
  const saved = settings.data?.scrub_left_after_months;
  const [months, setMonths] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (saved !== undefined) setMonths(String(saved));
  }, [saved]);

  const save = () => {
    setError(null);
    update.mutate(
      { scrub_left_after_months: Number(months) },
      {
        onSuccess: (answer) => showToast(t('scrub.saved', { months: answer.scrub_left_after_months }), 'success'),
        onError: (failure) => setError(errorText(failure, t('scrub.failed'))),
      },
    );
  };

  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Stack spacing={1.5}>
        <Typography variant="body2" color="text.secondary">
          {t('scrub.text')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
          <TextField
            label={t('scrub.months')}
            type="number"
            size="small"
            value={months}
            onChange={(event) => setMonths(event.target.value)}
            disabled={!settings.isSuccess}
            error={error !== null}
            helperText={error ?? (settings.isError ? t('scrub.unavailable') : undefined)}
            slotProps={{ htmlInput: { min: 1, max: 120, step: 1 } }}
            sx={{ minWidth: 260 }}
          />
          <Button
            variant="outlined"
            onClick={save}
            disabled={!settings.isSuccess || update.isPending || months === String(saved)}
          >
            {t('scrub.save')}
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
}
