import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import EditCalendarIcon from '@mui/icons-material/EditCalendar';
import HourglassTopIcon from '@mui/icons-material/HourglassTop';
import {
  Box,
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
import type { MyClass, MyClasses } from '@tuitiondesk/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDay } from '../../lib/dates';

const students = (count: number) => (count === 1 ? '1 student' : `${count} students`);

/** Where the class stands today, in a centre's words. */
export function classStateText(item: MyClass): string {
  switch (item.state) {
    case 'not_marked':
      return `Not marked · ${students(item.students)}`;
    case 'marked':
      return `Marked ${item.marked} of ${item.students} · waiting for approval`;
    case 'approved':
      return `Approved · ${item.marked} of ${item.students} marked`;
  }
}

function StateIcon({ state }: { state: MyClass['state'] }) {
  if (state === 'approved') return <CheckCircleIcon color="success" />;
  if (state === 'marked') return <HourglassTopIcon color="info" />;
  return <EditCalendarIcon color="warning" />;
}

/**
 * "Your classes today": each class assigned to the teacher with its state, one tap to its register.
 * `action` sits in the card's heading (the app places "Allow notifications on this device" there).
 */
export function MyClassesCard({
  data,
  loading,
  action,
}: {
  data: MyClasses | undefined;
  loading: boolean;
  action?: ReactNode;
}) {
  let body: ReactNode;
  if (loading) {
    body = <Skeleton height={48} aria-label="Loading your classes" />;
  } else if (!data) {
    body = <Typography color="text.secondary">Your classes could not be loaded. They show again shortly.</Typography>;
  } else if (data.classes.length === 0) {
    body = (
      <Typography color="text.secondary">
        No class is assigned to you yet. An admin assigns classes on the Teachers screen.
      </Typography>
    );
  } else {
    body = (
      <List disablePadding>
        {data.classes.map((item) => (
          <ListItem key={item.class_name} disablePadding>
            <ListItemButton
              component={Link}
              to={item.register_url}
              sx={{ borderRadius: 1, minHeight: 56 }}
              aria-label={`Class ${item.class_name}: ${classStateText(item)}. Open the register`}
            >
              <ListItemIcon>
                <StateIcon state={item.state} />
              </ListItemIcon>
              <ListItemText primary={`Class ${item.class_name}`} secondary={classStateText(item)} />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    );
  }
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 3 }} component="section" aria-labelledby="my-classes-title">
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 1 }}
      >
        <Box>
          <Typography variant="h6" component="h2" id="my-classes-title">
            Your classes today
          </Typography>
          {data && (
            <Typography variant="body2" color="text.secondary">
              {formatDay(data.date)}
            </Typography>
          )}
        </Box>
        {action}
      </Stack>
      {body}
    </Paper>
  );
}
