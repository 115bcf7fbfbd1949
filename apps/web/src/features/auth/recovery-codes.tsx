import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DownloadIcon from '@mui/icons-material/Download';
import { Alert, Box, Button, Checkbox, FormControlLabel, Stack } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from '../../i18n';
import { saveFile } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { MONOSPACE } from './monospace';

export const RECOVERY_CODES_FILE = 'tuitiondesk-recovery-codes.txt';

/** The downloaded or copied file: a heading with the account's name, what the codes do, the codes. */
export function recoveryCodesText(texts: { title: string; note: string }, codes: string[]): string {
  return [texts.title, texts.note, '', ...codes, ''].join('\n');
}

interface Props {
  codes: string[];
  username: string;
  /** Only once the user says the codes are saved: they are not shown again. */
  onDone: () => void;
}

/** The recovery codes, once, right after two-factor sign-in is turned on: to copy or download. */
export function RecoveryCodes({ codes, username, onDone }: Props) {
  const { t } = useTranslation('account');
  const { showToast } = useToast();
  const [saved, setSaved] = useState(false);
  const text = recoveryCodesText({ title: t('codes.fileTitle', { username }), note: t('codes.fileNote') }, codes);
  return (
    <Stack spacing={2} sx={{ pt: 1 }}>
      <Alert severity="warning">{t('codes.warning')}</Alert>
      <Box
        component="ol"
        aria-label={t('codes.list')}
        sx={{
          m: 0,
          p: 2,
          pl: 5,
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
          columnGap: 4,
          rowGap: 0.5,
          bgcolor: 'grey.100',
          borderRadius: 1,
          fontFamily: MONOSPACE,
          fontSize: 16,
        }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Button
          startIcon={<ContentCopyIcon />}
          onClick={() => {
            void navigator.clipboard?.writeText(text).then(
              () => showToast(t('codes.copied'), 'success'),
              () => showToast(t('codes.copyFailed'), 'warning'),
            );
          }}
        >
          {t('codes.copy')}
        </Button>
        <Button
          startIcon={<DownloadIcon />}
          onClick={() => saveFile(new Blob([text], { type: 'text/plain' }), RECOVERY_CODES_FILE)}
        >
          {t('codes.download')}
        </Button>
      </Box>
      <FormControlLabel
        control={<Checkbox checked={saved} onChange={(_event, checked) => setSaved(checked)} />}
        label={t('codes.saved')}
      />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', pb: 1 }}>
        <Button variant="contained" onClick={onDone} disabled={!saved}>
          {t('codes.done')}
        </Button>
      </Box>
    </Stack>
  );
}
