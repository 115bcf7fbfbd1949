import { Box, Button, TextField } from '@mui/material';
import { normaliseCountryCode } from '@tuitiondesk/contract';
import { type FormEvent, useEffect, useState } from 'react';
import { englishText, useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { splitFieldError } from '../../lib/field-errors';
import { usePhoneSettings, useUpdatePhoneSettings } from '../../lib/phone-settings';
import { useToast } from '../../lib/toast';

export const COUNTRY_CODE_LABEL = englishText('settings:countryCode.label');

/**
 * The centre's default country code (admins), beside the phones it applies to: a number typed or
 * imported without a country code takes it. Numbers already stored keep theirs.
 */
export function PhoneCountryCodeSetting() {
  const { t } = useTranslation('settings');
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
      setProblem(t('countryCode.problem'));
      return;
    }
    update.mutate(
      { default_country_code: text },
      {
        onSuccess: (answer) => showToast(t('countryCode.saved', { code: answer.default_country_code }), 'success'),
        onError: (error) => {
          const words = errorText(error, t('countryCode.failed'));
          setProblem(splitFieldError(words, ['default_country_code']).fields.default_country_code ?? words);
        },
      },
    );
  };

  return (
    <Box component="form" onSubmit={save} noValidate sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
      <TextField
        label={t('countryCode.label')}
        size="small"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setProblem(undefined);
        }}
        disabled={!settings.isSuccess}
        error={problem !== undefined}
        helperText={problem ?? (settings.isError ? t('unavailable') : t('countryCode.hint'))}
        slotProps={{ htmlInput: { inputMode: 'tel', autoComplete: 'off' } }}
        sx={{ flex: { xs: 1, sm: 'none' }, width: { sm: 300 } }}
      />
      <Button
        type="submit"
        variant="outlined"
        disabled={!settings.isSuccess || update.isPending || text.trim() === saved}
        sx={{ height: 40 }}
      >
        {update.isPending ? t('saving') : t('save')}
      </Button>
    </Box>
  );
}
