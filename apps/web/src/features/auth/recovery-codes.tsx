import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DownloadIcon from '@mui/icons-material/Download';
import { Alert, Box, Button, Checkbox, FormControlLabel, Stack } from '@mui/material';
import { useState } from 'react';
import { saveFile } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { MONOSPACE } from './monospace';

export const RECOVERY_CODES_FILE = 'tuitiondesk-recovery-codes.txt';

export function recoveryCodesText(username: string, codes: string[]): string {
  return [
    `TuitionDesk recovery codes for ${username}`,
    'Each code signs you in once, in place of the code from your authenticator app.',
    '',
    ...codes,
    '',
  ].join('\n');
}

interface Props {
  codes: string[];
  username: string;
  /** Only once the user says the codes are saved: they are not shown again. */
  onDone: () => void;
}

/** The recovery codes, once, right after two-factor sign-in is turned on: to copy or download. */
export function RecoveryCodes({ codes, username, onDone }: Props) {
  const { showToast } = useToast();
  const [saved, setSaved] = useState(false);
  const text = recoveryCodesText(username, codes);
  return (
    <Stack spacing={2} sx={{ pt: 1 }}>
      <Alert severity="warning">
        Save these recovery codes somewhere safe now. If you lose your phone, each one signs you in once instead of a
        code from the app. They will not be shown again.
      </Alert>
      <Box
        component="ol"
        aria-label="Recovery codes"
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
              () => showToast('Recovery codes copied', 'success'),
              () => showToast('Copy failed: download the codes instead', 'warning'),
            );
          }}
        >
          Copy codes
        </Button>
        <Button
          startIcon={<DownloadIcon />}
          onClick={() => saveFile(new Blob([text], { type: 'text/plain' }), RECOVERY_CODES_FILE)}
        >
          Download codes
        </Button>
      </Box>
      <FormControlLabel
        control={<Checkbox checked={saved} onChange={(_event, checked) => setSaved(checked)} />}
        label="I have saved my recovery codes"
      />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', pb: 1 }}>
        <Button variant="contained" onClick={onDone} disabled={!saved}>
          Done
        </Button>
      </Box>
    </Stack>
  );
}
