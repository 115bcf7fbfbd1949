import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import dayjs from 'dayjs';
import { memo, useEffect, useState } from 'react';
import { formatDay } from '../../lib/dates';

interface Props {
  label: string;
  /** yyyy-MM-dd */
  value: string;
  /** The first day that may be chosen (yyyy-MM-dd); none: any past day. */
  min?: string;
  /** The last day that may be chosen (yyyy-MM-dd): the centre's today. */
  max: string;
  /** Called with yyyy-MM-dd once the typed or picked date is complete and inside the window. */
  onChange: (value: string) => void;
}

/**
 * The shared DateField, bounded on both sides: a teacher may mark only the last few days (ADR 019),
 * and the bounds are the server's (the centre's today may not be the browser's). The calendar greys
 * out the days outside; a typed one stays in the field, marked, without reaching the page.
 */
export const WindowDateField = memo(function WindowDateField({ label, value, min, max, onChange }: Props) {
  const [draft, setDraft] = useState(() => dayjs(value));
  useEffect(() => setDraft(dayjs(value)), [value]);
  const problemOf = (day: dayjs.Dayjs): string | undefined => {
    if (!day.isValid()) return undefined;
    if (day.isAfter(dayjs(max), 'day')) return 'Cannot be a future date';
    if (min !== undefined && day.isBefore(dayjs(min), 'day')) return `Cannot be before ${formatDay(min)}`;
    return undefined;
  };
  const problem = problemOf(draft);

  return (
    <DatePicker
      label={label}
      value={draft}
      format="DD MMM YYYY"
      minDate={min === undefined ? undefined : dayjs(min)}
      maxDate={dayjs(max)}
      onChange={(next) => {
        if (!next) return;
        setDraft(next);
        if (!next.isValid() || problemOf(next)) return;
        const iso = next.format('YYYY-MM-DD');
        if (iso !== value) onChange(iso);
      }}
      slotProps={{
        textField: {
          size: 'small',
          sx: { width: { xs: '100%', sm: 190 } },
          onBlur: () => {
            if (!draft.isValid() || problemOf(draft)) setDraft(dayjs(value));
          },
          ...(problem ? { error: true, helperText: problem } : {}),
        },
      }}
    />
  );
});
