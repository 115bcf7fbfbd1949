import { Alert, Box, Link as MuiLink, Typography } from '@mui/material';
import { Link } from 'react-router';
import { useTranslation } from '../../i18n';
import { formatDay } from '../../lib/dates';
import { useNotMarked } from './api';
import { classLabel } from './attendance-status';

function registerLink(className: string, date: string): string {
  return `/mark-attendance?${new URLSearchParams({ class_name: className, date }).toString()}`;
}

/**
 * On Approval: the classes of the day with students nobody has marked, "Class 8: 9 students not
 * marked", each a link to its register. Nothing while every student has a mark (or the call failed:
 * the pending records are what the page is for).
 */
export function NotMarkedLines({ date }: { date: string }) {
  const { t } = useTranslation('attendance');
  const notMarked = useNotMarked(date);
  const classes = notMarked.data?.date === date ? notMarked.data.classes : [];
  if (classes.length === 0) return null;
  return (
    <Alert severity="warning" aria-label={t('approval.notMarkedLead', { date: formatDay(date) })}>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {t('approval.notMarkedLead', { date: formatDay(date) })}
      </Typography>
      <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5 }}>
        {classes.map((item) => (
          <li key={item.class_name}>
            <MuiLink component={Link} to={registerLink(item.class_name, date)} color="inherit">
              {t('approval.notMarkedLine', { class: classLabel(item.class_name), count: item.not_marked })}
            </MuiLink>
          </li>
        ))}
      </Box>
    </Alert>
  );
}
