import { Box, Link, TextField } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from '../../i18n';

interface Props {
  value: string;
  onChange: (value: string) => void;
  /** Offers a switch to typing one of the recovery codes (letters and digits) instead. */
  allowRecoveryCode?: boolean;
  autoFocus?: boolean;
  required?: boolean;
  disabled?: boolean;
}

/**
 * The code from an authenticator app: a number pad on phones, and the browser's one-time-code
 * autofill. A recovery code has letters too, so asking for one brings the ordinary keyboard back.
 */
export function OneTimeCodeField({ value, onChange, allowRecoveryCode, autoFocus, required, disabled }: Props) {
  const { t } = useTranslation('auth');
  const [isRecovery, setIsRecovery] = useState(false);
  const toggle = () => {
    setIsRecovery((current) => !current);
    onChange('');
  };
  return (
    <Box>
      <TextField
        // A new field when the kind changes, so the keyboard a phone shows follows inputMode.
        key={isRecovery ? 'recovery' : 'code'}
        label={isRecovery ? t('code.recoveryLabel') : t('code.codeLabel')}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        autoComplete={isRecovery ? 'off' : 'one-time-code'}
        helperText={isRecovery ? t('code.recoveryHelp') : t('code.codeHelp')}
        slotProps={{
          htmlInput: isRecovery
            ? { autoCapitalize: 'characters', spellCheck: false, maxLength: 32 }
            : { inputMode: 'numeric', pattern: '[0-9 ]*', maxLength: 7 },
        }}
        autoFocus={autoFocus}
        required={required}
        disabled={disabled}
        fullWidth
      />
      {allowRecoveryCode && (
        <Link component="button" type="button" variant="body2" onClick={toggle} sx={{ mt: 0.5 }}>
          {isRecovery ? t('code.useApp') : t('code.useRecovery')}
        </Link>
      )}
    </Box>
  );
}
