import { Autocomplete, TextField } from '@mui/material';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** Today's names a browser may list only under an older one (Asia/Calcutta): found by either. */
const CURRENT_NAMES = ['Asia/Kolkata', 'Europe/Kyiv', 'Asia/Ho_Chi_Minh', 'Asia/Kathmandu', 'America/Nuuk'];

const knows = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

/** Every zone this browser knows, with UTC, today's names and `current`. */
function zoneNames(current: string): string[] {
  const listed = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set(['UTC', ...listed, ...CURRENT_NAMES.filter(knows), current].filter(Boolean))].sort();
}

/** A searchable list of IANA time zones: type "kol" and pick Asia/Kolkata. */
export function TimeZoneField(props: {
  value: string;
  onChange: (zone: string) => void;
  label: string;
  helperText: string;
  disabled?: boolean;
  error?: boolean;
}) {
  const { t } = useTranslation('centre');
  const options = useMemo(() => zoneNames(props.value), [props.value]);
  return (
    <Autocomplete
      options={options}
      openText={t('zoneList.open')}
      closeText={t('zoneList.close')}
      value={props.value || null}
      onChange={(_, zone) => {
        if (zone) props.onChange(zone);
      }}
      disabled={props.disabled}
      disableClearable={Boolean(props.value)}
      autoHighlight
      renderInput={(params) => (
        <TextField {...params} label={props.label} helperText={props.helperText} error={props.error} />
      )}
      sx={{ maxWidth: 420 }}
    />
  );
}
