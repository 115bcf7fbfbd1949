import EventNoteIcon from '@mui/icons-material/EventNote';
import GroupOffIcon from '@mui/icons-material/GroupOff';
import RuleIcon from '@mui/icons-material/Rule';
import { Alert, Box, Button, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import { type ClassName, type MarkingScope, matchClassName } from '@tuitiondesk/contract';
import dayjs from 'dayjs';
import { type ReactNode, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { DateField } from '../../components/date-field';
import { EmptyState } from '../../components/empty-state';
import { PageSpinner } from '../../components/page-spinner';
import { i18n, useTranslation } from '../../i18n';
import { classIsPlain, classNamer } from '../../i18n/class-names';
import { errorText } from '../../lib/api-client';
import { useAuth } from '../../lib/auth/auth-provider';
import { useClassChoices } from '../../lib/centre-classes';
import { formatDay, todayIso } from '../../lib/dates';
import { useMarkQueue } from '../../lib/offline/mark-sync';
import { answerText } from './answer-text';
import { useMarkingScope, useRoster } from './api';
import { classLabel } from './attendance-status';
import { MarkingRulesDialog } from './marking-rules-dialog';
import { QueuedMarksPanel } from './queued-marks-panel';
import { pruneOldDrafts } from './register-draft';
import { RosterForm } from './roster-form';

/** `?date=` when it is a real date inside the window, else the window's last day (today). */
function dateFrom(param: string | null, min: string | undefined, max: string): string {
  if (!param || !/^\d{4}-\d{2}-\d{2}$/.test(param)) return max;
  const day = dayjs(param);
  const isReal = day.isValid() && day.format('YYYY-MM-DD') === param;
  return isReal && param <= max && (min === undefined || param >= min) ? param : max;
}

/** For a teacher: which classes and days they may mark, in one sentence. */
export function scopeSentence(scope: MarkingScope): string {
  const t = i18n.getFixedT(null, 'attendance', 'mark.scope');
  // The spec's classes as written ("your classes 7, 8"); once one is the centre's own, each by its
  // label in brackets ("your classes (Class 9, Morning batch)", ADR 054).
  const count = scope.classes.length;
  const classes = scope.any_class
    ? t('anyClass')
    : scope.classes.every(classIsPlain)
      ? t('yourClasses', { count, classes: scope.classes.join(', ') })
      : t('yourNamedClasses', { count, classes: scope.classes.map(classNamer(i18n.language)).join(', ') });
  const days =
    scope.days_back === 0
      ? t('todayOnly')
      : t('daysBack', { count: scope.days_back, from: formatDay(scope.earliest_date) });
  return t('sentence', { classes, days });
}

/**
 * Mark Attendance: a class's register for a date. A teacher is offered only the
 * classes and days the server says they may mark (ADR 019); an admin every class and any past day,
 * and the centre's marking rules.
 */
export default function MarkAttendancePage() {
  const { t } = useTranslation('attendance');
  const scope = useMarkingScope();
  const { user } = useAuth();
  const queue = useMarkQueue();
  const [rulesOpen, setRulesOpen] = useState(false);
  useEffect(() => pruneOldDrafts(), []);
  const [params, setParams] = useSearchParams();
  // Without the scope (still loading, or failed) nothing is narrowed: the server refuses what is not allowed.
  // The centre's classes (ADR 043) name the scope's values ("Morning batch" as the centre wrote it).
  const centre = useClassChoices();
  const allowed: readonly ClassName[] = scope.data?.classes ?? centre.active.map((c) => c.value);
  const max = scope.data?.today ?? todayIso();
  const min = scope.data?.earliest_date ?? undefined;
  const asked = matchClassName(
    params.get('class_name'),
    allowed.map((value) => ({ value, label: centre.labelOf(value) })),
  );
  const className: ClassName | undefined =
    asked && allowed.includes(asked) ? asked : allowed.length === 1 ? allowed[0] : undefined;
  const date = dateFrom(params.get('date'), min, max);
  const roster = useRoster(scope.isPending ? undefined : className, date);
  const isAdmin = scope.data?.restricted === false;

  const choose = (change: { class_name?: string; date?: string }) => {
    const next = { ...(className ? { class_name: className } : {}), date, ...change };
    setParams(next, { replace: true });
  };

  if (scope.isPending) return <PageSpinner />;
  if (scope.data?.restricted && scope.data.classes.length === 0) {
    return (
      <Paper variant="outlined">
        <EmptyState
          icon={<GroupOffIcon />}
          title={t('mark.noClassTitle')}
          text={
            scope.data.cannot_mark_reason
              ? answerText(scope.data.cannot_mark_reason, scope.data.cannot_mark)
              : t('mark.noClassText')
          }
        />
      </Paper>
    );
  }

  let content: ReactNode;
  if (!className) {
    content = (
      <Paper variant="outlined">
        <EmptyState icon={<EventNoteIcon />} title={t('mark.chooseTitle')} text={t('mark.chooseText')} />
      </Paper>
    );
  } else if (roster.isPending || !queue.ready || !user) {
    content = <PageSpinner />;
  } else if (roster.data === undefined) {
    // Never loaded (a refetch that fails keeps the register shown).
    content = <Alert severity="error">{errorText(roster.error, t('mark.rosterFailed'))}</Alert>;
  } else if (roster.data.students.length === 0) {
    content = (
      <Paper variant="outlined">
        <EmptyState
          icon={<GroupOffIcon />}
          title={t('mark.noStudentsTitle', { class: classLabel(className) })}
          text={t('mark.noStudentsText')}
        />
      </Paper>
    );
  } else {
    content = (
      <RosterForm
        key={`${roster.data.class_name}|${roster.data.date}|${roster.dataUpdatedAt}`}
        roster={roster.data}
        userId={user.id}
      />
    );
  }

  return (
    <Stack spacing={2}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
          <DateField
            label={t('mark.date')}
            value={date}
            min={min}
            max={max}
            onChange={(value) => choose({ date: value })}
          />
          <TextField
            select
            size="small"
            label={t('mark.class')}
            value={className ?? ''}
            onChange={(event) => choose({ class_name: event.target.value })}
            sx={{ width: { xs: '100%', sm: 190 } }}
          >
            {allowed.map((name) => (
              <MenuItem key={name} value={name}>
                {classLabel(name, centre.labelOf(name))}
              </MenuItem>
            ))}
          </TextField>
          {isAdmin && (
            <>
              <Box sx={{ flexGrow: 1, display: { xs: 'none', sm: 'block' } }} />
              <Button
                startIcon={<RuleIcon />}
                onClick={() => setRulesOpen(true)}
                sx={{ alignSelf: 'flex-start', mt: { sm: 0.25 } }}
              >
                {t('mark.markingRules')}
              </Button>
            </>
          )}
        </Stack>
        {scope.data?.restricted && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
            {scopeSentence(scope.data)}
          </Typography>
        )}
      </Paper>
      <QueuedMarksPanel />
      {scope.isError && <Alert severity="warning">{errorText(scope.error, t('mark.scopeFailed'))}</Alert>}
      {content}
      {isAdmin && <MarkingRulesDialog open={rulesOpen} onClose={() => setRulesOpen(false)} />}
    </Stack>
  );
}
