import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import { type ReactNode, useState } from 'react';
import { NotLoaded } from '../../components/not-loaded';
import { PageSpinner } from '../../components/page-spinner';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { useDisconnectWhatsapp, useWhatsappSetup } from './api';
import { ConnectForm, TestSend, WebhookValues } from './whatsapp-forms';
import { WhatsappStatus, WhatsappTemplates } from './whatsapp-status';

/** The tab's label in the Communications page (its own namespace). */
export function WhatsappTabLabel() {
  const { t } = useTranslation('whatsapp');
  return <>{t('tab')}</>;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" sx={{ p: { xs: 2, sm: 3 } }} aria-label={title}>
      <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

function DisconnectButton() {
  const { t } = useTranslation('whatsapp');
  const disconnect = useDisconnectWhatsapp();
  const { showToast } = useToast();
  const [open, setOpen] = useState(false);
  const confirm = () =>
    disconnect.mutate(undefined, {
      onSuccess: () => {
        setOpen(false);
        showToast(t('disconnect.done'), 'success');
      },
      onError: (failure) => {
        setOpen(false);
        showToast(errorText(failure, t('disconnect.failed')), 'error');
      },
    });
  return (
    <>
      <Button color="error" variant="outlined" onClick={() => setOpen(true)}>
        {t('disconnect.button')}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="whatsapp-disconnect-title">
        <DialogTitle id="whatsapp-disconnect-title">{t('disconnect.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t('disconnect.body')}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{t('disconnect.cancel')}</Button>
          <Button color="error" variant="contained" onClick={confirm} disabled={disconnect.isPending}>
            {t('disconnect.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

/**
 * Communications → WhatsApp (admins): connect the centre's WhatsApp from the console, the values Meta
 * needs from us, a test to the admin's own phone, and the connection's live status (ADR 045).
 */
export function WhatsappSetupTab() {
  const { t } = useTranslation('whatsapp');
  const setup = useWhatsappSetup();
  if (setup.isError && setup.data === undefined) {
    return (
      <Box sx={{ p: 3 }}>
        <NotLoaded text={t('notLoaded')} onRetry={() => void setup.refetch()} centred />
      </Box>
    );
  }
  if (!setup.data) return <PageSpinner />;
  const data = setup.data;
  // A word longer than a phone's width (a long translation, an address, a token) breaks rather than
  // widening the page past the window.
  return (
    <Stack spacing={2} sx={{ overflowWrap: 'anywhere', minWidth: 0 }}>
      <Typography color="text.secondary">{t('intro')}</Typography>
      <Section title={t('tab')}>
        <Stack spacing={2}>
          <WhatsappStatus setup={data} />
          {data.source === 'console' && (
            <div>
              <DisconnectButton />
            </div>
          )}
        </Stack>
      </Section>
      {!data.fixed_by_server && (
        <Section title={t('webhook.title')}>
          <WebhookValues setup={data} />
        </Section>
      )}
      {!data.fixed_by_server && (
        <Section title={data.connected ? t('form.reconnect') : t('form.title')}>
          <ConnectForm setup={data} />
        </Section>
      )}
      {data.connected && (
        <Section title={t('test.title')}>
          <TestSend live={data.live} />
        </Section>
      )}
      {data.live && (
        <Section title={t('templates.title')}>
          <WhatsappTemplates live={data.live} />
        </Section>
      )}
    </Stack>
  );
}
