import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import dayjs from 'dayjs';
import { memo, useEffect, useState } from 'react';

interface Props {
  label: string;
  /** yyyy-MM-dd */
  value: string;
  /** Called with yyyy-MM-dd once the typed or picked date is complete (and not in the future, when so asked). */
  onChange: (value: string) => void;
  disableFuture?: boolean;
  /** A problem with the chosen date, shown under the field. */
  error?: string;
}

/**
 * A date picker that speaks yyyy-MM-dd, the API's format. Half-typed or refused dates stay in the
 * field, marked, without reaching the page; leaving the field puts back the date in use.
 */
export const DateField = memo(function DateField({ label, value, onChange, disableFuture = false, error }: Props) {
  const [draft, setDraft] = useState(() => dayjs(value));
  useEffect(() => setDraft(dayjs(value)), [value]);
  const isFuture = (day: dayjs.Dayjs) => disableFuture && day.isAfter(dayjs(), 'day');
  const problem = error ?? (draft.isValid() && isFuture(draft) ? 'Cannot be a future date' : undefined);

  return (
    <DatePicker
      label={label}
      value={draft}
      format="DD MMM YYYY"
      disableFuture={disableFuture}
      onChange={(next) => {
        if (!next) return;
        setDraft(next);
        if (!next.isValid() || isFuture(next)) return;
        const iso = next.format('YYYY-MM-DD');
        if (iso !== value) onChange(iso);
      }}
      slotProps={{
        textField: {
          size: 'small',
          sx: { width: { xs: '100%', sm: 190 } },
          onBlur: () => {
            if (!draft.isValid() || isFuture(draft)) setDraft(dayjs(value));
          },
          ...(problem ? { error: true, helperText: problem } : {}),
        },
      }}
    />
  );
});
