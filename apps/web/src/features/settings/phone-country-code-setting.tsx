import { Box, Button, TextField } from '@mui/material';
import { normaliseCountryCode } from '@tuitiondesk/contract';
import { type FormEvent, useEffect, useState } from 'react';
import { errorText } from '../../lib/api-client';
import { splitFieldError } from '../../lib/field-errors';
import { usePhoneSettings, useUpdatePhoneSettings } from '../../lib/phone-settings';
import { useToast } from '../../lib/toast';

export const COUNTRY_CODE_LABEL = 'Country code for local numbers';
const CODE_HINT = 'Added to phone numbers typed or imported without one';
const CODE_PROBLEM = 'Enter + and the 1 to 3 digits of a country calling code, e.g. +91 for India or +44 for the UK';

/**
 * The centre's default country code (admins), beside the phones it applies to: a number typed or
 * imported without a country code takes it. Numbers already stored keep theirs.
 */
export function PhoneCountryCodeSetting() {
  const { showToast } = useToast();
  const settings = usePhoneSettings();
  const update = useUpdatePhoneSettings();
  const saved = settings.data?.default_country_code;
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string>();
  useEffect(() => {
    if (saved !== undefined) setText(saved);
  }, [saved]);

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (normaliseCountryCode(text) === undefined) {
      setProblem(CODE_PROBLEM);
      return;
    }
    update.mutate(
      { default_country_code: text },
      {
        onSuccess: (answer) =>
          showToast(`Phone numbers written without a country code now take ${answer.default_country_code}`, 'success'),
        onError: (error) => {
          const words = errorText(error, 'Failed to save the country code');
          setProblem(splitFieldError(words, ['default_country_code']).fields.default_country_code ?? words);
        },
      },
    );
  };

  return (
    <Box component="form" onSubmit={save} noValidate sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
      <TextField
        label={COUNTRY_CODE_LABEL}
        size="small"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setProblem(undefined);
        }}
        disabled={!settings.isSuccess}
        error={problem !== undefined}
        helperText={problem ?? (settings.isError ? 'Setting unavailable' : CODE_HINT)}
        slotProps={{ htmlInput: { inputMode: 'tel', autoComplete: 'off' } }}
        sx={{ flex: { xs: 1, sm: 'none' }, width: { sm: 300 } }}
      />
      <Button
        type="submit"
        variant="outlined"
        disabled={!settings.isSuccess || update.isPending || text.trim() === saved}
        sx={{ height: 40 }}
      >
        {update.isPending ? 'Saving...' : 'Save'}
      </Button>
    </Box>
  );
}
