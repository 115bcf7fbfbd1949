import EventNoteIcon from '@mui/icons-material/EventNote';
import GroupOffIcon from '@mui/icons-material/GroupOff';
import RuleIcon from '@mui/icons-material/Rule';
import { Alert, Box, Button, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import { type ClassName, type MarkingScope, normaliseClassName } from '@tuitiondesk/contract';
import dayjs from 'dayjs';
import { type ReactNode, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { DateField } from '../../components/date-field';
import { EmptyState } from '../../components/empty-state';
import { PageSpinner } from '../../components/page-spinner';
import { errorText } from '../../lib/api-client';
import { useAuth } from '../../lib/auth/auth-provider';
import { formatDay, todayIso } from '../../lib/dates';
import { useMarkQueue } from '../../lib/offline/mark-sync';
import { useMarkingScope, useRoster } from './api';
import { CLASS_NAMES, classLabel } from './attendance-status';
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
  const classes = scope.any_class
    ? 'any class'
    : `${scope.classes.length === 1 ? 'your class' : 'your classes'} ${scope.classes.join(', ')}`;
  const days =
    scope.days_back === 0
      ? 'for today only'
      : `from ${formatDay(scope.earliest_date)} to today (${scope.days_back} day${scope.days_back === 1 ? '' : 's'} back)`;
  return `You can mark attendance for ${classes}, ${days}. An admin can mark earlier days.`;
}

/**
 * Mark Attendance: a class's register for a date. A teacher is offered only the
 * classes and days the server says they may mark (ADR 019); an admin every class and any past day,
 * and the centre's marking rules.
 */
export default function MarkAttendancePage() {
  const scope = useMarkingScope();
  const { user } = useAuth();
  const queue = useMarkQueue();
  const [rulesOpen, setRulesOpen] = useState(false);
  useEffect(() => pruneOldDrafts(), []);
  const [params, setParams] = useSearchParams();
  // Without the scope (still loading, or failed) nothing is narrowed: the server refuses what is not allowed.
  const allowed: readonly ClassName[] = scope.data?.classes ?? CLASS_NAMES;
  const max = scope.data?.today ?? todayIso();
  const min = scope.data?.earliest_date ?? undefined;
  const asked = normaliseClassName(params.get('class_name'));
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
          title="No class is assigned to you"
          text={scope.data.cannot_mark_reason ?? 'Ask an admin to assign your classes on the Teachers screen.'}
        />
      </Paper>
    );
  }

  let content: ReactNode;
  if (!className) {
    content = (
      <Paper variant="outlined">
        <EmptyState
          icon={<EventNoteIcon />}
          title="Choose a class"
          text="Pick a date and a class to see its students and mark their attendance."
        />
      </Paper>
    );
  } else if (roster.isPending || !queue.ready || !user) {
    content = <PageSpinner />;
  } else if (roster.data === undefined) {
    // Never loaded (a refetch that fails keeps the register shown).
    content = <Alert severity="error">{errorText(roster.error, 'Failed to load the class roster')}</Alert>;
  } else if (roster.data.students.length === 0) {
    content = (
      <Paper variant="outlined">
        <EmptyState
          icon={<GroupOffIcon />}
          title={`No students in ${classLabel(className)}`}
          text="Add students to this class on the Students screen, then mark their attendance here."
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
          <DateField label="Date" value={date} min={min} max={max} onChange={(value) => choose({ date: value })} />
          <TextField
            select
            size="small"
            label="Class"
            value={className ?? ''}
            onChange={(event) => choose({ class_name: event.target.value })}
            sx={{ width: { xs: '100%', sm: 190 } }}
          >
            {allowed.map((name) => (
              <MenuItem key={name} value={name}>
                {classLabel(name)}
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
                Marking rules
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
      {scope.isError && (
        <Alert severity="warning">{errorText(scope.error, 'Failed to load the classes you may mark')}</Alert>
      )}
      {content}
      {isAdmin && <MarkingRulesDialog open={rulesOpen} onClose={() => setRulesOpen(false)} />}
    </Stack>
  );
}
