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
import { type TFunction, useTranslation } from '../../i18n';
import { formatDay } from '../../lib/dates';
import { useClassText } from './class-text';

/** Where the class stands today, in a centre's words. */
export function classStateText(t: TFunction<'dashboard'>, item: MyClass): string {
  switch (item.state) {
    case 'not_marked':
      return t('myClasses.notMarked', { students: t('myClasses.students', { count: item.students }) });
    case 'marked':
      return t('myClasses.marked', { marked: item.marked, total: item.students });
    case 'approved':
      return t('myClasses.approved', { marked: item.marked, total: item.students });
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
  const { t } = useTranslation('dashboard');
  const classText = useClassText();
  let body: ReactNode;
  if (loading) {
    body = <Skeleton height={48} aria-label={t('myClasses.loading')} />;
  } else if (!data) {
    body = <Typography color="text.secondary">{t('myClasses.notLoaded')}</Typography>;
  } else if (data.classes.length === 0) {
    body = <Typography color="text.secondary">{t('myClasses.none')}</Typography>;
  } else {
    body = (
      <List disablePadding>
        {data.classes.map((item) => (
          <ListItem key={item.class_name} disablePadding>
            <ListItemButton
              component={Link}
              to={item.register_url}
              sx={{ borderRadius: 1, minHeight: 56 }}
              aria-label={t('myClasses.openRegister', {
                name: classText(item.class_name),
                state: classStateText(t, item),
              })}
            >
              <ListItemIcon>
                <StateIcon state={item.state} />
              </ListItemIcon>
              <ListItemText primary={classText(item.class_name)} secondary={classStateText(t, item)} />
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
            {t('myClasses.title')}
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
