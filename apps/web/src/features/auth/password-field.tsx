import { TextField } from '@mui/material';
import type { Ref } from 'react';

interface Props {
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: 'current-password' | 'new-password';
  /** Shown under the field, which turns red. */
  error?: string;
  inputRef?: Ref<HTMLInputElement>;
}

/** A required password field: the browser's password manager fills or proposes it by `autoComplete`. */
export function PasswordField({ label, value, onChange, autoComplete, error, inputRef }: Props) {
  return (
    <TextField
      label={label}
      type="password"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      inputRef={inputRef}
      error={Boolean(error)}
      helperText={error}
      autoComplete={autoComplete}
      required
    />
  );
}
