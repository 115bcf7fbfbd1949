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
import { FLIP_IN_RTL } from '../../components/flip-in-rtl';
import { NotLoaded } from '../../components/not-loaded';
import { PageHeader } from '../../components/page-header';
import { StatCard } from '../../components/stat-card';
import { type ParseKeys, type TFunction, useTranslation } from '../../i18n';
import { useAuth } from '../../lib/auth/auth-provider';
import { formatDay, formatNumber } from '../../lib/dates';
import { useDashboardSummary, useMyClasses } from './api';
import { useClassText } from './class-text';
import { FeeCards } from './fee-cards';
import { MyClassesCard } from './my-classes-card';
import { NotificationsControl } from './notifications-control';
import { ReachCard } from './reach-card';
import { ReminderCards } from './reminder-cards';

/** Shown when the figure is unknown (the call failed and nothing was loaded before). */
const UNKNOWN = '—';

interface CardSpec {
  /** Keys in the dashboard's catalogue. */
  label: ParseKeys<'dashboard'>;
  caption?: ParseKeys<'dashboard'>;
  icon: ReactNode;
  value: (summary: DashboardSummary, t: TFunction<'dashboard'>) => ReactNode;
  /** The page where admins act on the figure: the card opens it (teachers do not have that page). */
  adminPage?: string;
}

/** The dashboard's six cards, in order. */
const CARDS: readonly CardSpec[] = [
  {
    label: 'cards.totalStudents',
    caption: 'cards.totalStudentsCaption',
    icon: <SchoolIcon />,
    value: (summary) => formatNumber(summary.total_students),
  },
  {
    label: 'cards.teachers',
    caption: 'cards.teachersCaption',
    icon: <PeopleIcon />,
    value: (summary) => formatNumber(summary.total_teachers),
  },
  {
    label: 'cards.pendingApproval',
    caption: 'cards.pendingApprovalCaption',
    icon: <PendingActionsIcon />,
    value: (summary) => formatNumber(summary.pending_approval),
    adminPage: '/attendance',
  },
  // Counts the messages sent this month, as its label says (not the approved attendance records).
  {
    label: 'cards.messagesSent',
    caption: 'cards.messagesSentCaption',
    icon: <ChatIcon />,
    value: (summary) => formatNumber(summary.messages_sent),
  },
  {
    label: 'cards.attendanceRate',
    caption: 'cards.attendanceRateCaption',
    icon: <TrendingUpIcon sx={FLIP_IN_RTL} />,
    value: (summary, t) => t('percent', { value: formatNumber(summary.attendance_rate) }),
  },
  { label: 'cards.activeClasses', icon: <ClassIcon />, value: (summary) => formatNumber(summary.active_classes) },
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
  const { t } = useTranslation('dashboard');
  const classText = useClassText();
  // Every class with a student not marked, partly marked ones too (ADR 048); an older answer has only
  // the classes with no mark at all.
  const notMarked =
    summary?.classes_not_marked ??
    summary?.classes_without_attendance.map((item) => ({ ...item, not_marked: item.students })) ??
    [];
  let body: ReactNode;
  if (loading) {
    body = <Skeleton height={48} aria-label={t('unmarked.loading')} />;
  } else if (!summary) {
    // Never loaded (a refetch that fails keeps what was shown): say so, never "every class marked".
    body = <NotLoaded text={t('unmarked.notLoaded')} onRetry={onRetry} />;
  } else if (summary.active_classes === 0) {
    body = <Typography color="text.secondary">{t('unmarked.noClasses')}</Typography>;
  } else if (notMarked.length === 0) {
    body = (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'success.main' }}>
        <CheckCircleIcon />
        <Typography>{t('unmarked.allMarked')}</Typography>
      </Stack>
    );
  } else {
    body = (
      <List disablePadding>
        {notMarked.map((item) => (
          <ListItem key={item.class_name} disablePadding>
            <ListItemButton component={Link} to={markAttendanceLink(item.class_name)} sx={{ borderRadius: 1 }}>
              <ListItemIcon>
                <EditCalendarIcon color="warning" />
              </ListItemIcon>
              <ListItemText
                primary={classText(item.class_name)}
                secondary={t('unmarked.notMarked', { count: item.not_marked })}
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
        {t('unmarked.title')}
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
  const { t } = useTranslation('dashboard');
  return (
    <Alert
      severity="warning"
      sx={{ mt: 3 }}
      action={
        <Button component={Link} to="/communications?tab=call-list" color="inherit" size="small">
          {t('openCallList')}
        </Button>
      }
    >
      {t('familiesToCall', { count })}
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
  const { t } = useTranslation('dashboard');
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
        title={user ? t('welcome', { name: user.full_name }) : t('welcomeNoName')}
        subtitle={t('subtitle')}
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
              label={t(card.label)}
              caption={card.caption ? t(card.caption) : undefined}
              icon={card.icon}
              loading={loading}
              value={data ? card.value(data, t) : UNKNOWN}
              to={isAdmin ? card.adminPage : undefined}
            />
          </Grid>
        ))}
      </Grid>
      {/* Teachers see no fees: the cards, and their calls to /fees, are an admin's only. */}
      {isAdmin && <FeeCards />}

      {data && data.not_reached > 0 && <FamiliesToCall count={data.not_reached} />}
      <ReachCard reach={data?.reach} />

      <UnmarkedClasses summary={data} loading={loading} onRetry={() => void summary.refetch()} />
    </Box>
  );
}
