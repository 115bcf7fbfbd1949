import AddIcon from '@mui/icons-material/Add';
import CancelIcon from '@mui/icons-material/Cancel';
import { Box, Button, Chip, FormHelperText, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { FEE_REMINDER_OFFSET_MAX, FEE_REMINDER_OFFSET_MIN, FEE_REMINDER_OFFSETS_MAX } from '@tuitiondesk/contract';
import { useId, useState } from 'react';
import type { TFunction } from '../../i18n';
import { useTranslation } from '../../i18n';

type Side = 'before' | 'on' | 'after';

/** A day of the schedule in words: "3 days before", "On the due day", "7 days after". */
export function reminderDayText(t: TFunction<'feeReminders'>, offset: number): string {
  if (offset === 0) return t('day.on');
  return offset < 0 ? t('day.before', { count: -offset }) : t('day.after', { count: offset });
}

/** The furthest a side reaches, in days (the contract's bounds). */
const FURTHEST: Record<Exclude<Side, 'on'>, number> = {
  before: -FEE_REMINDER_OFFSET_MIN,
  after: FEE_REMINDER_OFFSET_MAX,
};

/** What the "Add a day" fields make, or why they make nothing. */
function offsetOf(side: Side, count: string, days: readonly number[]): { offset: number } | { problem: string } {
  if (days.length >= FEE_REMINDER_OFFSETS_MAX) return { problem: 'tooMany' };
  let offset = 0;
  if (side !== 'on') {
    const number = Number(count);
    if (!/^\d+$/.test(count.trim()) || number < 1 || number > FURTHEST[side]) return { problem: 'range' };
    offset = side === 'before' ? -number : number;
  }
  return days.includes(offset) ? { problem: 'listed' } : { offset };
}

/**
 * The schedule's days as chips, each removable, and the fields that add one: a number of days and
 * before, on or after the due day. `error` is the server's refusal of the list, shown under it.
 */
export function ReminderDays({
  days,
  onChange,
  error,
}: {
  days: readonly number[];
  onChange: (days: number[]) => void;
  error: string | undefined;
}) {
  const { t } = useTranslation('feeReminders');
  const id = useId();
  const [side, setSide] = useState<Side>('before');
  const [count, setCount] = useState('1');
  const [problem, setProblem] = useState<string | null>(null);
  const furthest = side === 'on' ? 0 : FURTHEST[side];
  const problemText =
    problem === 'tooMany'
      ? t('schedule.tooMany', { count: FEE_REMINDER_OFFSETS_MAX })
      : problem === 'listed'
        ? t('schedule.listed')
        : problem === 'range'
          ? t('schedule.range', { count: furthest })
          : undefined;

  const add = () => {
    const made = offsetOf(side, count, days);
    if ('problem' in made) {
      setProblem(made.problem);
      return;
    }
    setProblem(null);
    onChange([...days, made.offset].sort((a, b) => a - b));
  };

  return (
    <Box role="group" aria-labelledby={`${id}-days`}>
      <Typography id={`${id}-days`} variant="body2" sx={{ fontWeight: 500, mb: 1 }}>
        {t('schedule.days')}
      </Typography>
      <Stack direction="row" useFlexGap spacing={1} sx={{ flexWrap: 'wrap', mb: 1 }} data-testid="reminder-days">
        {days.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            {t('schedule.noDays')}
          </Typography>
        )}
        {days.map((offset) => (
          <Chip
            key={offset}
            label={reminderDayText(t, offset)}
            // Named by its day alone; the remove icon's own label says what it does (a label, not an
            // SVG title: a title's text is no text the button shows).
            aria-label={reminderDayText(t, offset)}
            onDelete={() => onChange(days.filter((day) => day !== offset))}
            deleteIcon={
              <CancelIcon
                aria-hidden={false}
                role="img"
                aria-label={t('schedule.remove', { day: reminderDayText(t, offset) })}
              />
            }
          />
        ))}
      </Stack>
      <FormHelperText error={error !== undefined} sx={{ mb: 1.5 }}>
        {error ?? t('schedule.daysHint')}
      </FormHelperText>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'flex-start' } }}>
        {side !== 'on' && (
          <TextField
            size="small"
            type="number"
            label={t('schedule.count')}
            value={count}
            onChange={(event) => {
              setCount(event.target.value);
              setProblem(null);
            }}
            error={problem === 'range'}
            slotProps={{ htmlInput: { min: 1, max: furthest, inputMode: 'numeric' } }}
            sx={{ width: { sm: 140 } }}
          />
        )}
        <TextField
          select
          size="small"
          label={t('schedule.side')}
          value={side}
          onChange={(event) => {
            setSide(event.target.value as Side);
            setProblem(null);
          }}
          sx={{ minWidth: 200 }}
        >
          {(['before', 'on', 'after'] as const).map((value) => (
            <MenuItem key={value} value={value}>
              {t(`side.${value}`)}
            </MenuItem>
          ))}
        </TextField>
        <Button variant="outlined" startIcon={<AddIcon />} onClick={add} sx={{ alignSelf: { xs: 'flex-start' } }}>
          {t('schedule.add')}
        </Button>
      </Stack>
      {problemText && (
        <FormHelperText error role="alert">
          {problemText}
        </FormHelperText>
      )}
    </Box>
  );
}
