import type { PickersInputComponentLocaleText } from '@mui/x-date-pickers';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import dayjs from 'dayjs';
import { memo, useEffect, useMemo, useState } from 'react';
import { type TFunction, useTranslation } from '../i18n';
import { formatDay, todayIso } from '../lib/dates';

/**
 * The picker's own words (buttons, the calendar's labels, what a screen reader says) in the language
 * in use. Every date picker in the console is this field, so they are given here rather than on the
 * shell's LocalizationProvider, whose chunk the sign-in route loads. In English they are MUI's own.
 */
function pickerTexts(t: TFunction<'dates'>): PickersInputComponentLocaleText {
  return {
    previousMonth: t('picker.previousMonth'),
    nextMonth: t('picker.nextMonth'),
    openPreviousView: t('picker.openPreviousView'),
    openNextView: t('picker.openNextView'),
    calendarViewSwitchingButtonAriaLabel: (view) =>
      view === 'year' ? t('picker.yearViewOpen') : t('picker.calendarViewOpen'),
    cancelButtonLabel: t('picker.cancel'),
    clearButtonLabel: t('picker.clear'),
    okButtonLabel: t('picker.ok'),
    todayButtonLabel: t('picker.today'),
    toolbarTitle: t('picker.selectDate'),
    openDatePickerDialogue: (formattedDate) =>
      formattedDate ? t('picker.chooseDateSelected', { date: formattedDate }) : t('picker.chooseDate'),
    fieldClearLabel: t('picker.clear'),
    dateTableLabel: t('picker.pickDate'),
    year: t('picker.year'),
    month: t('picker.month'),
    day: t('picker.day'),
    weekDay: t('picker.weekDay'),
    empty: t('picker.empty'),
  };
}

interface Props {
  label: string;
  /** yyyy-MM-dd */
  value: string;
  /** Called with yyyy-MM-dd once the typed or picked date is complete and allowed. */
  onChange: (value: string) => void;
  /** No day after today (the browser's). */
  disableFuture?: boolean;
  /** The first day that may be chosen (yyyy-MM-dd). */
  min?: string;
  /** The last day that may be chosen (yyyy-MM-dd), e.g. the centre's today as the server has it. */
  max?: string;
  /** A problem with the chosen date, shown under the field. */
  error?: string;
  /**
   * Days the calendar marks with a dot (yyyy-MM-dd), each with the words a screen reader says after
   * the date, e.g. "3 pending".
   */
  marks?: ReadonlyMap<string, string>;
}

/**
 * A date picker that speaks yyyy-MM-dd, the API's format. The calendar greys out the days that may
 * not be chosen; half-typed or refused dates stay in the field, marked, without reaching the page,
 * and leaving the field puts back the date in use.
 */
export const DateField = memo(function DateField({
  label,
  value,
  onChange,
  disableFuture = false,
  min,
  max,
  error,
  marks,
}: Props) {
  const { t, i18n } = useTranslation('dates');
  // `t` is a new function in each language: the picker's words follow it.
  const localeText = useMemo(() => pickerTexts(t), [t]);
  const [draft, setDraft] = useState(() => dayjs(value));
  useEffect(() => setDraft(dayjs(value)), [value]);
  const problemOf = (day: dayjs.Dayjs): string | undefined => {
    if (!day.isValid()) return undefined;
    const isFuture =
      // The future is after today on the centre's clock (ADR 042), not the browser's.
      (disableFuture && day.isAfter(dayjs(todayIso()), 'day')) || (max !== undefined && day.isAfter(dayjs(max), 'day'));
    if (isFuture) return t('cannotBeFuture');
    if (min !== undefined && day.isBefore(dayjs(min), 'day')) return t('cannotBeBefore', { date: formatDay(min) });
    return undefined;
  };
  const problem = error ?? problemOf(draft);

  return (
    <DatePicker
      label={label}
      localeText={localeText}
      value={draft}
      format="DD MMM YYYY"
      disableFuture={disableFuture}
      minDate={min === undefined ? undefined : dayjs(min)}
      maxDate={max === undefined ? undefined : dayjs(max)}
      onChange={(next) => {
        if (!next) return;
        setDraft(next);
        if (!next.isValid() || problemOf(next)) return;
        const iso = next.format('YYYY-MM-DD');
        if (iso !== value) onChange(iso);
      }}
      slotProps={{
        day: (ownerState) => {
          const mark = marks?.get(ownerState.day.format('YYYY-MM-DD'));
          if (mark === undefined) return {};
          return {
            'aria-label': t('markedDay', { day: ownerState.day.format('D MMMM YYYY'), mark }),
            sx: {
              position: 'relative',
              '&::after': {
                content: '""',
                position: 'absolute',
                bottom: 3,
                left: '50%',
                width: 6,
                height: 6,
                ml: '-3px',
                borderRadius: '50%',
                bgcolor: ownerState.isDaySelected ? 'common.white' : 'warning.main',
              },
            },
          };
        },
        textField: {
          size: 'small',
          // A month's name is longer in most other languages (`24 நவம்பர் 2026`) than English's `Nov`.
          sx: { width: { xs: '100%', sm: i18n.language === 'en' ? 190 : 240 } },
          onBlur: () => {
            if (!draft.isValid() || problemOf(draft)) setDraft(dayjs(value));
          },
          ...(problem ? { error: true, helperText: problem } : {}),
        },
      }}
    />
  );
});
