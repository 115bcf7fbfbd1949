import { Button, Paper, Stack, TextField, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { errorText } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { useStudentSettings, useUpdateStudentSettings } from './api';

export const SCRUB_MONTHS_LABEL = 'Remove personal data after (months)';

/**
 * The centre's scrub_left_after_months, beside the students it applies to. Admins only; the server
 * checks the number (422 names what to fix) and the page shows its words.
 */
export function ScrubSetting() {
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
        onSuccess: (answer) =>
          showToast(`Personal data will be removed ${answer.scrub_left_after_months} months after leaving`, 'success'),
        onError: (failure) => setError(errorText(failure, 'Failed to update settings')),
      },
    );
  };

  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Stack spacing={1.5}>
        <Typography variant="body2" color="text.secondary">
          The names of students who left, and their families' phone numbers and app access, are removed this many months
          after the day they left. Their attendance stays in reports, without names.
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
          <TextField
            label={SCRUB_MONTHS_LABEL}
            type="number"
            size="small"
            value={months}
            onChange={(event) => setMonths(event.target.value)}
            disabled={!settings.isSuccess}
            error={error !== null}
            helperText={error ?? (settings.isError ? 'Setting unavailable' : undefined)}
            slotProps={{ htmlInput: { min: 1, max: 120, step: 1 } }}
            sx={{ minWidth: 260 }}
          />
          <Button
            variant="outlined"
            onClick={save}
            disabled={!settings.isSuccess || update.isPending || months === String(saved)}
          >
            Save
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
}
