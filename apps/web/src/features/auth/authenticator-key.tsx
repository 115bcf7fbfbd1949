import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Box, Button, Typography } from '@mui/material';
import type { TwoFactorSetup } from '@tuitiondesk/contract';
import { useToast } from '../../lib/toast';
import { MONOSPACE } from './monospace';

/** `ABCD EFGH …`: a long secret is easier to type into a phone in groups of four. */
export function groupSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/** The new secret for the authenticator app: a QR code to scan, or the key to type or copy. */
export function AuthenticatorKey({ setup }: { setup: TwoFactorSetup }) {
  const { showToast } = useToast();
  const copy = () => {
    void navigator.clipboard?.writeText(setup.secret).then(
      () => showToast('Key copied', 'success'),
      () => showToast('Copy failed: select the key and copy it', 'warning'),
    );
  };
  return (
    <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
      <Box
        component="img"
        src={setup.qr_code}
        alt="QR code to scan with your authenticator app"
        sx={{ width: 184, height: 184, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'white' }}
      />
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" color="text.secondary">
          Key (time-based, 6 digits)
        </Typography>
        <Typography
          data-testid="two-factor-secret"
          sx={{ fontFamily: MONOSPACE, fontSize: 15, wordBreak: 'break-all', userSelect: 'all' }}
        >
          {groupSecret(setup.secret)}
        </Typography>
        <Button size="small" startIcon={<ContentCopyIcon />} onClick={copy}>
          Copy key
        </Button>
      </Box>
    </Box>
  );
}
