import EventNoteIcon from '@mui/icons-material/EventNote';
import GroupOffIcon from '@mui/icons-material/GroupOff';
import { Alert, MenuItem, Paper, Stack, TextField } from '@mui/material';
import { type ClassName, normaliseClassName } from '@tuitiondesk/contract';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { DateField } from '../../components/date-field';
import { EmptyState } from '../../components/empty-state';
import { PageSpinner } from '../../components/page-spinner';
import { errorText } from '../../lib/api-client';
import { todayIso } from '../../lib/dates';
import { useRoster } from './api';
import { CLASS_NAMES, classLabel } from './attendance-status';
import { RosterForm } from './roster-form';

/** `?date=` when it is a real date not after today, else today. */
function dateFrom(param: string | null): string {
  const today = todayIso();
  if (!param || !/^\d{4}-\d{2}-\d{2}$/.test(param)) return today;
  const day = dayjs(param);
  return day.isValid() && day.format('YYYY-MM-DD') === param && param <= today ? param : today;
}

/** Mark Attendance (beyond the spec): a class's register for a date, for teachers and admins. */
export default function MarkAttendancePage() {
  const [params, setParams] = useSearchParams();
  const className: ClassName | undefined = normaliseClassName(params.get('class_name'));
  const date = dateFrom(params.get('date'));
  const roster = useRoster(className, date);

  const choose = (change: { class_name?: string; date?: string }) => {
    const next = { ...(className ? { class_name: className } : {}), date, ...change };
    setParams(next, { replace: true });
  };

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
  } else if (roster.isPending) {
    content = <PageSpinner />;
  } else if (roster.isError) {
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
      <RosterForm key={`${roster.data.class_name}|${roster.data.date}|${roster.dataUpdatedAt}`} roster={roster.data} />
    );
  }

  return (
    <Stack spacing={2}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <DateField label="Date" value={date} disableFuture onChange={(value) => choose({ date: value })} />
          <TextField
            select
            size="small"
            label="Class"
            value={className ?? ''}
            onChange={(event) => choose({ class_name: event.target.value })}
            sx={{ width: { xs: '100%', sm: 190 } }}
          >
            {CLASS_NAMES.map((name) => (
              <MenuItem key={name} value={name}>
                {classLabel(name)}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
      </Paper>
      {content}
    </Stack>
  );
}
