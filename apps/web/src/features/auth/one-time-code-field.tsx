import { Box, Link, TextField } from '@mui/material';
import { useState } from 'react';

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
        label={isRecovery ? 'Recovery code' : 'Authentication code'}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        autoComplete={isRecovery ? 'off' : 'one-time-code'}
        helperText={
          isRecovery
            ? 'One of the recovery codes you saved when you set up two-factor sign-in'
            : 'The 6-digit code your authenticator app shows now'
        }
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
          {isRecovery ? 'Use the code from your authenticator app' : 'Use a recovery code instead'}
        </Link>
      )}
    </Box>
  );
}
