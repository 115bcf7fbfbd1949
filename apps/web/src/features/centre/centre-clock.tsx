import { Avatar, Stack, Typography } from '@mui/material';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { setCentreTimeZone } from '../../lib/dates';
import { useCentre } from './api';

/**
 * Puts the console on the centre's clock once signed in (`lib/dates`: "today", times shown), and sends
 * an admin of a centre never set up to the set-up (`/settings`) before anything else (ADR 042).
 */
export function CentreClock({ enabled, isAdmin }: { enabled: boolean; isAdmin: boolean }) {
  const centre = useCentre(enabled);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const zone = centre.data?.time_zone;
  const needsSetUp = isAdmin && centre.data?.needs_set_up === true;
  useEffect(() => {
    if (zone) setCentreTimeZone(zone);
  }, [zone]);
  useEffect(() => {
    if (needsSetUp && pathname !== '/settings') navigate('/settings', { replace: true });
  }, [needsSetUp, pathname, navigate]);
  return null;
}

/** The centre's name (and logo) where the console named itself: `fallback` until it is known. */
export function CentreBrand({ fallback, enabled }: { fallback: string; enabled: boolean }) {
  const centre = useCentre(enabled).data;
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
      {centre?.logo_url && <Avatar variant="rounded" src={centre.logo_url} alt="" sx={{ width: 32, height: 32 }} />}
      <Typography variant="h6" component="div" sx={{ fontWeight: 700 }} color="primary" noWrap>
        {centre?.name ?? fallback}
      </Typography>
    </Stack>
  );
}
