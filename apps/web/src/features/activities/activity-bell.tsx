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
import { useState } from 'react';
import { useMarkActivitiesViewed, useRecentActivities, useUnreadCount } from './api';

/** The bell of the top bar: the unread badge, and the Recent Activity panel it opens. */
export function ActivityBell() {
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
      <Tooltip title="Recent Activity">
        <IconButton
          color="inherit"
          aria-label={unread > 0 ? `Recent activity, ${unread} unread` : 'Recent activity'}
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
            Recent Activity
          </Typography>
        </Box>
        <Divider />
        {recent.isPending ? (
          <Box sx={{ display: 'grid', placeItems: 'center', p: 3 }}>
            <CircularProgress size={24} aria-label="Loading activity" />
          </Box>
        ) : activities.length === 0 ? (
          <Box sx={{ p: 3, textAlign: 'center' }}>
            <Typography>No recent activities</Typography>
            <Typography variant="body2" color="text.secondary">
              Activity will appear here when users perform actions
            </Typography>
          </Box>
        ) : (
          <List dense sx={{ maxHeight: 420, overflowY: 'auto' }}>
            {activities.map((activity) => (
              <ListItem key={activity.id} divider>
                <ListItemText primary={activity.description} secondary={activity.time_ago} />
              </ListItem>
            ))}
          </List>
        )}
      </Popover>
    </>
  );
}
