import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Box, Button, Typography } from '@mui/material';
import type { TwoFactorSetup } from '@tuitiondesk/contract';
import { useTranslation } from '../../i18n';
import { useToast } from '../../lib/toast';
import { MONOSPACE } from './monospace';

/** `ABCD EFGH …`: a long secret is easier to type into a phone in groups of four. */
export function groupSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/** The new secret for the authenticator app: a QR code to scan, or the key to type or copy. */
export function AuthenticatorKey({ setup }: { setup: TwoFactorSetup }) {
  const { t } = useTranslation('account');
  const { showToast } = useToast();
  const copy = () => {
    void navigator.clipboard?.writeText(setup.secret).then(
      () => showToast(t('key.copied'), 'success'),
      () => showToast(t('key.copyFailed'), 'warning'),
    );
  };
  return (
    <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
      <Box
        component="img"
        src={setup.qr_code}
        alt={t('key.qrAlt')}
        sx={{ width: 184, height: 184, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'white' }}
      />
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" color="text.secondary">
          {t('key.label')}
        </Typography>
        <Typography
          data-testid="two-factor-secret"
          sx={{ fontFamily: MONOSPACE, fontSize: 15, wordBreak: 'break-all', userSelect: 'all' }}
        >
          {groupSecret(setup.secret)}
        </Typography>
        <Button size="small" startIcon={<ContentCopyIcon />} onClick={copy}>
          {t('key.copy')}
        </Button>
      </Box>
    </Box>
  );
}
