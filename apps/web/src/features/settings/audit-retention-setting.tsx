import { Box, Button, TextField, Typography } from '@mui/material';
import { AUDIT_RETENTION_MONTHS_MAX, AUDIT_RETENTION_MONTHS_MIN } from '@tuitiondesk/contract';
import { type FormEvent, useEffect, useState } from 'react';
import { errorText } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { useAuditRetention, useUpdateAuditRetention } from './api';

export const AUDIT_RETENTION_LABEL = 'Keep audit entries for (months)';

function problemOf(text: string): string | undefined {
  const months = Number(text);
  if (!/^\d+$/.test(text.trim()) || months < AUDIT_RETENTION_MONTHS_MIN || months > AUDIT_RETENTION_MONTHS_MAX)
    return `Enter a whole number of months from ${AUDIT_RETENTION_MONTHS_MIN} to ${AUDIT_RETENTION_MONTHS_MAX}`;
  return undefined;
}

/** How long the centre keeps audit entries; a daily job removes older ones. Admins only. */
export function AuditRetentionSetting() {
  const { showToast } = useToast();
  const retention = useAuditRetention();
  const update = useUpdateAuditRetention();
  const saved = retention.data?.audit_retention_months;
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    if (saved !== undefined) setText(String(saved));
  }, [saved]);
  const problem = touched ? problemOf(text) : undefined;

  const save = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problemOf(text)) return;
    update.mutate(
      { audit_retention_months: Number(text) },
      {
        onSuccess: (answer) =>
          showToast(`Audit entries are kept for ${answer.audit_retention_months} months`, 'success'),
        onError: (error) => showToast(errorText(error, 'Failed to update the audit setting'), 'error'),
      },
    );
  };

  return (
    <Box
      component="form"
      onSubmit={save}
      noValidate
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'flex-start' }}
    >
      <TextField
        label={AUDIT_RETENTION_LABEL}
        size="small"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setTouched(true);
        }}
        disabled={!retention.isSuccess}
        error={problem !== undefined}
        helperText={
          problem ?? (retention.isError ? 'Setting unavailable' : 'Older entries are removed by a daily job.')
        }
        slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        sx={{ width: { xs: '100%', sm: 260 } }}
      />
      <Button
        type="submit"
        variant="outlined"
        disabled={!retention.isSuccess || update.isPending || text === String(saved)}
        sx={{ height: 40 }}
      >
        Save
      </Button>
      {update.isPending && (
        <Typography variant="body2" color="text.secondary" sx={{ alignSelf: 'center' }}>
          Saving...
        </Typography>
      )}
    </Box>
  );
}
