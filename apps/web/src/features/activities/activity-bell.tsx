import NotificationsIcon from '@mui/icons-material/Notifications';
import {
  Badge,
  Box,
  CircularProgress,
  Divider,
  IconButton,
  List,
  ListItem,
  ListItemText,
  Popover,
  Tooltip,
  Typography,
} from '@mui/material';
import type { Activity } from '@tuitiondesk/contract';
import { useState } from 'react';
import { currentLanguage, type TFunction, useTranslation } from '../../i18n';
import { translatedActivity } from '../../i18n/activity-texts';
import { useMarkActivitiesViewed, useRecentActivities, useUnreadCount } from './api';

/** The units the server's "5 minutes ago" counts in, largest first, as seconds. */
const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 60 * 60 * 24 * 365],
  ['month', 60 * 60 * 24 * 30],
  ['week', 60 * 60 * 24 * 7],
  ['day', 60 * 60 * 24],
  ['hour', 60 * 60],
  ['minute', 60],
];

/**
 * When an activity happened. In English the server's own words ("5 minutes ago"); in another language
 * the same count in the same unit from its time, in the language's words (Intl) with Western digits.
 */
function whenText(t: TFunction<'activity'>, activity: Activity, now = Date.now()): string {
  const language = currentLanguage();
  if (language === 'en') return activity.time_ago;
  const seconds = Math.max(0, Math.round((now - new Date(activity.created_at).getTime()) / 1000));
  const format = new Intl.RelativeTimeFormat(`${language}-u-nu-latn`, { numeric: 'always' });
  for (const [unit, size] of UNITS) {
    const count = Math.floor(seconds / size);
    if (count >= 1) return format.format(-count, unit);
  }
  return t('justNow');
}

/**
 * What happened, in the language in use: the activity's code filled with its params (names, subjects
 * and reasons as written). A row from before codes, or a code this console does not know yet, shows the
 * English the server stored.
 */
function activityText(activity: Activity): string {
  return translatedActivity(activity.text_code, activity.params) ?? activity.description;
}

/** The bell of the top bar: the unread badge, and the Recent Activity panel it opens. */
export function ActivityBell() {
  const { t } = useTranslation('activity');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const unread = useUnreadCount();
  const recent = useRecentActivities();
  const markViewed = useMarkActivitiesViewed();

  const open = (element: HTMLElement) => {
    setAnchor(element);
    if (unread > 0) markViewed.mutate();
  };
  const activities = recent.data?.activities ?? [];

  return (
    <>
      <Tooltip title={t('title')}>
        <IconButton
          color="inherit"
          aria-label={unread > 0 ? t('buttonUnread', { count: unread }) : t('button')}
          onClick={(event) => open(event.currentTarget)}
        >
          <Badge badgeContent={unread} color="error" max={99}>
            <NotificationsIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { width: 360, maxWidth: 'calc(100vw - 32px)' } } }}
      >
        <Box sx={{ px: 2, py: 1.5 }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {t('title')}
          </Typography>
        </Box>
        <Divider />
        {recent.isPending ? (
          <Box sx={{ display: 'grid', placeItems: 'center', p: 3 }}>
            <CircularProgress size={24} aria-label={t('loading')} />
          </Box>
        ) : activities.length === 0 ? (
          <Box sx={{ p: 3, textAlign: 'center' }}>
            <Typography>{t('empty')}</Typography>
            <Typography variant="body2" color="text.secondary">
              {t('emptyText')}
            </Typography>
          </Box>
        ) : (
          <List dense sx={{ maxHeight: 420, overflowY: 'auto' }}>
            {activities.map((activity) => (
              <ListItem key={activity.id} divider>
                <ListItemText primary={activityText(activity)} secondary={whenText(t, activity)} />
              </ListItem>
            ))}
          </List>
        )}
      </Popover>
    </>
  );
}
