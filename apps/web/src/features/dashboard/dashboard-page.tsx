import ChatIcon from '@mui/icons-material/Chat';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ClassIcon from '@mui/icons-material/Class';
import EditCalendarIcon from '@mui/icons-material/EditCalendar';
import PendingActionsIcon from '@mui/icons-material/PendingActions';
import PeopleIcon from '@mui/icons-material/People';
import SchoolIcon from '@mui/icons-material/School';
import TrendingUpIcon from '@mui/icons-material/TrendingUp';
import {
  Alert,
  Box,
  Button,
  Grid,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Paper,
  Skeleton,
  Stack,
  Typography,
} from '@mui/material';
import type { DashboardSummary } from '@tuitiondesk/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { NotLoaded } from '../../components/not-loaded';
import { PageHeader } from '../../components/page-header';
import { StatCard } from '../../components/stat-card';
import { useAuth } from '../../lib/auth/auth-provider';
import { formatDay } from '../../lib/dates';
import { useDashboardSummary, useMyClasses } from './api';
import { MyClassesCard } from './my-classes-card';
import { NotificationsControl } from './notifications-control';
import { ReminderCards } from './reminder-cards';

/** Shown when the figure is unknown (the call failed and nothing was loaded before). */
const UNKNOWN = '—';

interface CardSpec {
  label: string;
  caption?: string;
  icon: ReactNode;
  value: (summary: DashboardSummary) => ReactNode;
  /** The page where admins act on the figure: the card opens it (teachers do not have that page). */
  adminPage?: string;
}

/** The dashboard's six cards, in order. */
const CARDS: readonly CardSpec[] = [
  {
    label: 'Total Students',
    caption: 'Active enrolled',
    icon: <SchoolIcon />,
    value: (summary) => summary.total_students,
  },
  { label: 'Teachers', caption: 'Active staff', icon: <PeopleIcon />, value: (summary) => summary.total_teachers },
  {
    label: 'Pending Approval',
    caption: 'Attendance records',
    icon: <PendingActionsIcon />,
    value: (summary) => summary.pending_approval,
    adminPage: '/attendance',
  },
  // Counts the messages sent this month, as its label says (not the approved attendance records).
  { label: 'Messages Sent', caption: 'This month', icon: <ChatIcon />, value: (summary) => summary.messages_sent },
  {
    label: 'Attendance Rate',
    caption: 'This month avg',
    icon: <TrendingUpIcon />,
    value: (summary) => `${summary.attendance_rate}%`,
  },
  { label: 'Active Classes', icon: <ClassIcon />, value: (summary) => summary.active_classes },
];

function markAttendanceLink(className: string): string {
  return `/mark-attendance?${new URLSearchParams({ class_name: className }).toString()}`;
}

function UnmarkedClasses({
  summary,
  loading,
  onRetry,
}: {
  summary: DashboardSummary | undefined;
  loading: boolean;
  onRetry: () => void;
}) {
  let body: ReactNode;
  if (loading) {
    body = <Skeleton height={48} aria-label="Loading classes" />;
  } else if (!summary) {
    // Never loaded (a refetch that fails keeps what was shown): say so, never "every class marked".
    body = <NotLoaded text="The dashboard could not be loaded." onRetry={onRetry} />;
  } else if (summary.active_classes === 0) {
    body = <Typography color="text.secondary">No classes yet: add students to see their attendance here.</Typography>;
  } else if (summary.classes_without_attendance.length === 0) {
    body = (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'success.main' }}>
        <CheckCircleIcon />
        <Typography>Attendance has been marked for every class today.</Typography>
      </Stack>
    );
  } else {
    body = (
      <List disablePadding>
        {summary.classes_without_attendance.map((item) => (
          <ListItem key={item.class_name} disablePadding>
            <ListItemButton component={Link} to={markAttendanceLink(item.class_name)} sx={{ borderRadius: 1 }}>
              <ListItemIcon>
                <EditCalendarIcon color="warning" />
              </ListItemIcon>
              <ListItemText
                primary={`Class ${item.class_name}`}
                secondary={`${item.students} student(s) · Mark attendance`}
              />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    );
  }
  return (
    <Paper variant="outlined" sx={{ p: 2, mt: 3 }}>
      <Typography variant="h6" component="h3" sx={{ mb: 1 }}>
        Attendance not marked today
      </Typography>
      {summary && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {formatDay(summary.date)}
        </Typography>
      )}
      {body}
    </Paper>
  );
}

/** Families no message reached (or who asked for a call): one tap to the call list. */
function FamiliesToCall({ count }: { count: number }) {
  return (
    <Alert
      severity="warning"
      sx={{ mt: 3 }}
      action={
        <Button component={Link} to="/communications?tab=call-list" color="inherit" size="small">
          Open the call list
        </Button>
      }
    >
      {count === 1 ? '1 family was' : `${count} families were`} not reached by any message, or asked to be called.
    </Alert>
  );
}

/**
 * Dashboard: the centre's figures for admins and teachers, refreshed every 30 s. `actions` sit beside
 * the welcome (the app places there what a role may do from here, such as changing one's password).
 * A teacher's starts with what they can act on: today's reminders, then their classes today, each one
 * tap from its register; the centre's figures come after.
 */
export default function DashboardPage({ actions }: { actions?: ReactNode }) {
  const { user } = useAuth();
  const isTeacher = user?.role === 'teacher';
  const isAdmin = user?.role === 'admin';
  const myClasses = useMyClasses(isTeacher);
  const summary = useDashboardSummary();
  const loading = summary.isPending;
  const data = summary.data;

  return (
    <Box>
      <PageHeader
        title={`Welcome back${user ? `, ${user.full_name}` : ''}!`}
        subtitle="Your tutorial management system at a glance."
        action={actions}
        mb={3}
      />

      {isTeacher && (
        <>
          <ReminderCards reminders={myClasses.data?.reminders ?? []} />
          <MyClassesCard data={myClasses.data} loading={myClasses.isPending} action={<NotificationsControl />} />
        </>
      )}

      <Grid container spacing={2}>
        {CARDS.map((card) => (
          <Grid key={card.label} size={{ xs: 12, sm: 6, md: 4 }}>
            <StatCard
              label={card.label}
              caption={card.caption}
              icon={card.icon}
              loading={loading}
              value={data ? card.value(data) : UNKNOWN}
              to={isAdmin ? card.adminPage : undefined}
            />
          </Grid>
        ))}
      </Grid>

      {data && data.not_reached > 0 && <FamiliesToCall count={data.not_reached} />}

      <UnmarkedClasses summary={data} loading={loading} onRetry={() => void summary.refetch()} />
    </Box>
  );
}
