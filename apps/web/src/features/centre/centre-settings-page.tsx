import { Alert, Box, Button, Divider, Link, Paper, Stack, TextField, Typography } from '@mui/material';
import type { Centre } from '@tuitiondesk/contract';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { browserTimeZone, formatDay } from '../../lib/dates';
import { splitFieldError } from '../../lib/field-errors';
import { useToast } from '../../lib/toast';
import { useCentre, useUpdateCentre } from './api';
import { GstSection } from './gst-section';
import { LogoField } from './logo-field';
import { TimeZoneField } from './time-zone-field';

/** The zone the form starts with: the centre's, or on the first set-up the admin's browser's. */
const startingZone = (centre: Centre) => (centre.needs_set_up ? browserTimeZone() : centre.time_zone);

/**
 * Centre settings (admins, ADR 042): the name families see, the logo, the time zone every day and time
 * follows, the phones' country code (`countryCode`, the phone settings' own control) and the way to the
 * classes. On the first sign-in of a centre never set up, the same form is the short set-up: saving it
 * goes on to `onSetUp` (the dashboard).
 */
export function CentreSettingsPage({ countryCode, onSetUp }: { countryCode: ReactNode; onSetUp: () => void }) {
  const { t } = useTranslation('centre');
  const { showToast } = useToast();
  const centre = useCentre();
  const update = useUpdateCentre();
  const [name, setName] = useState('');
  const [zone, setZone] = useState('');
  const [problems, setProblems] = useState<{ name?: string; time_zone?: string; form?: string }>({});
  const data = centre.data;
  const settingUp = data?.needs_set_up === true;
  useEffect(() => {
    if (!data) return;
    setName(data.name);
    setZone(startingZone(data));
  }, [data]);

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!data) return;
    const body = {
      ...(name.trim() !== data.name || settingUp ? { name } : {}),
      ...(!data.fixed_by_server.time_zone && (zone !== data.time_zone || settingUp) ? { time_zone: zone } : {}),
    };
    setProblems({});
    update.mutate(body, {
      onSuccess: () => {
        showToast(t('saved'), 'success');
        if (settingUp) onSetUp();
      },
      onError: (error) => {
        const words = errorText(error, t('failed'));
        const { fields, form } = splitFieldError(words, ['name', 'time_zone']);
        setProblems({ ...fields, ...(form ? { form } : {}) });
      },
    });
  };

  if (centre.isError) return <Alert severity="error">{t('unavailable')}</Alert>;

  const zoneHint = data?.fixed_by_server.time_zone
    ? t('timeZone.fixed')
    : t('timeZone.hint', { today: data ? formatDay(data.today) : '…' });

  return (
    <Stack spacing={3} sx={{ maxWidth: 720 }}>
      <Box>
        <Typography variant="h5" component="h2" sx={{ fontWeight: 600 }}>
          {settingUp ? t('setupTitle') : t('title')}
        </Typography>
        <Typography color="text.secondary">{settingUp ? t('setupIntro') : t('intro')}</Typography>
      </Box>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <Stack component="form" spacing={3} onSubmit={save} noValidate aria-label={t('title')}>
          <TextField
            label={t('name.label')}
            value={name}
            onChange={(event) => setName(event.target.value)}
            disabled={!data}
            required
            error={problems.name !== undefined}
            helperText={problems.name ?? t('name.hint')}
            slotProps={{ htmlInput: { maxLength: 100 } }}
            sx={{ maxWidth: 420 }}
          />
          <TimeZoneField
            label={t('timeZone.label')}
            value={zone}
            onChange={setZone}
            disabled={!data || data.fixed_by_server.time_zone}
            error={problems.time_zone !== undefined}
            helperText={problems.time_zone ?? zoneHint}
          />
          {problems.form && <Alert severity="error">{problems.form}</Alert>}
          <Box>
            <Button type="submit" variant="contained" disabled={!data || update.isPending}>
              {update.isPending ? t('saving') : settingUp ? t('continue') : t('save')}
            </Button>
          </Box>
        </Stack>
      </Paper>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <LogoField centre={data} />
      </Paper>
      {!settingUp && data && (
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
          <GstSection />
        </Paper>
      )}
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <Typography variant="subtitle2" component="h3" gutterBottom>
          {t('countryCode.title')}
        </Typography>
        {countryCode}
      </Paper>
      <Divider />
      <Box>
        <Typography variant="subtitle2" component="h3" gutterBottom>
          {t('classes.title')}
        </Typography>
        <Link component={RouterLink} to="/classes">
          {t('classes.link')}
        </Link>
      </Box>
    </Stack>
  );
}
