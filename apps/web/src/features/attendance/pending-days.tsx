import EventNoteIcon from '@mui/icons-material/EventNote';
import { Box, Button, Chip, Typography } from '@mui/material';
import type { PendingDay } from '@tuitiondesk/contract';
import dayjs from 'dayjs';
import { useId, useState } from 'react';
import { currentLanguage, i18n, useTranslation } from '../../i18n';
import { formatDay } from '../../lib/dates';

/** Days shown before "more": enough for a fortnight of weekdays, short enough to read at a glance. */
const SHOWN_DAYS = 8;

/**
 * The day with its weekday: `Mon 23 Nov 2026` in English (the spec's form); in another language Intl's
 * words and order with the month's full name and Western digits, as `lib/dates` writes a day.
 */
function dayWithWeekday(date: string): string {
  const language = currentLanguage();
  if (language === 'en') return `${dayjs(date).format('ddd')} ${formatDay(date)}`;
  return new Intl.DateTimeFormat(`${language}-u-nu-latn`, {
    weekday: 'short',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(dayjs(date).toDate());
}

/** `3 pending on Mon 23 Nov 2026` */
export function pendingDayLabel(day: PendingDay): string {
  return i18n.t('attendance:pendingDays.day', { count: day.pending, date: dayWithWeekday(day.date) });
}

/** The days other than `date` that have records awaiting approval, newest first. */
export function otherPendingDays(days: readonly PendingDay[], date: string): PendingDay[] {
  return days.filter((day) => day.date !== date && day.pending > 0);
}

/**
 * The other days with records awaiting approval, each one tap from the page's date: the sidebar's
 * badge counts every day, and records of a day nobody opens would otherwise wait unseen.
 */
export function PendingDays({
  days,
  onPick,
}: {
  /** The other days (not the one shown), newest first. */
  days: readonly PendingDay[];
  onPick: (date: string) => void;
}) {
  const { t } = useTranslation('attendance');
  const labelId = useId();
  const [showAll, setShowAll] = useState(false);
  if (days.length === 0) return null;
  const shown = showAll ? days : days.slice(0, SHOWN_DAYS);
  const hidden = days.length - shown.length;
  return (
    <Box
      role="group"
      aria-labelledby={labelId}
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}
    >
      <Typography id={labelId} variant="body2" color="text.secondary">
        {t('pendingDays.label')}
      </Typography>
      {shown.map((day) => (
        <Chip
          key={day.date}
          icon={<EventNoteIcon />}
          label={pendingDayLabel(day)}
          color="warning"
          variant="outlined"
          onClick={() => onPick(day.date)}
        />
      ))}
      {hidden > 0 && (
        <Button size="small" onClick={() => setShowAll(true)}>
          {t('pendingDays.showMore', { count: hidden })}
        </Button>
      )}
    </Box>
  );
}
