import NotificationsActiveIcon from '@mui/icons-material/NotificationsActive';
import { Button, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { englishText, useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import {
  allowNotifications,
  resubscribeQuietly,
  type StaffPushState,
  staffPushState,
  stopNotifications,
} from '../../lib/staff-push';
import { useToast } from '../../lib/toast';

/** The button's words in English (the spec's), for code that compares with them. */
export const ALLOW_NOTIFICATIONS = englishText('dashboard:notifications.allow');

/**
 * Marking reminders on this device: a button to allow them (the browser asks on the tap), or that they
 * are on, with a way to turn them off. Nothing where the browser cannot take them (no installed console
 * service worker, no secure connection).
 */
export function NotificationsControl() {
  const { t } = useTranslation('dashboard');
  const { showToast } = useToast();
  const [state, setState] = useState<StaffPushState | undefined>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    void staffPushState().then((found) => {
      if (!live) return;
      setState(found);
      // The server forgets the account's devices when its sessions end: this one is handed back.
      if (found === 'on') void resubscribeQuietly();
    });
    return () => {
      live = false;
    };
  }, []);

  if (state === undefined || state === 'unsupported') return null;
  if (state === 'blocked') {
    return (
      <Typography variant="body2" color="text.secondary">
        {t('notifications.blocked')}
      </Typography>
    );
  }

  const run = async (work: () => Promise<StaffPushState>, done: (next: StaffPushState) => string | undefined) => {
    setBusy(true);
    try {
      const next = await work();
      setState(next);
      const message = done(next);
      if (message) showToast(message, next === 'blocked' ? 'warning' : 'success');
    } catch (error) {
      showToast(errorText(error, t('notifications.couldNotChange')), 'error');
    } finally {
      setBusy(false);
    }
  };

  if (state === 'on') {
    return (
      <Button
        size="small"
        color="inherit"
        disabled={busy}
        onClick={() =>
          run(
            async () => {
              await stopNotifications();
              return 'off';
            },
            () => t('notifications.turnedOff'),
          )
        }
      >
        {t('notifications.turnOff')}
      </Button>
    );
  }
  return (
    <Button
      size="small"
      variant="outlined"
      startIcon={<NotificationsActiveIcon />}
      disabled={busy}
      onClick={() =>
        run(allowNotifications, (next) =>
          next === 'on' ? t('notifications.on') : next === 'blocked' ? t('notifications.browserBlocked') : undefined,
        )
      }
    >
      {t('notifications.allow')}
    </Button>
  );
}
