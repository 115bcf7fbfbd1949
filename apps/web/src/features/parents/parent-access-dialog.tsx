import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import KeyIcon from '@mui/icons-material/Key';
import LinkIcon from '@mui/icons-material/Link';
import PrintIcon from '@mui/icons-material/Print';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  GlobalStyles,
  Skeleton,
  Stack,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import type { ParentAccessIssued, ParentAccessStatus } from '@tuitiondesk/contract';
import { type ReactNode, useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { DialogSpinner } from '../../components/dialog-spinner';
import { englishText, type TFunction, useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { formatDayTime } from '../../lib/dates';
import { serverMessage } from '../../lib/server-words';
import { useToast } from '../../lib/toast';
import { useIssueParentAccess, useParentAccess } from './api';
import { signInLinkFor, WhatsappShareLink } from './share-link';

/** The printed card's advice in English (the words tests compare). */
export const PRINT_INSTRUCTIONS = englishText('parents:card.instructions');
const PRINT_CLASS = 'parent-access-print-card';

export function regenerateConfirmText(t: TFunction<'parents'>, status: ParentAccessStatus): string {
  return t('regenerateConfirm', { parent: status.parent_name || status.phone });
}

/** Shown to a teacher where the family already has a code (the server would answer 403); in English for tests. */
export const ADMIN_REPLACES_TEXT = englishText('parents:adminReplaces');

function notificationsText(t: TFunction<'parents'>, count: number): string {
  return count === 0 ? t('noDevice') : t('devices', { count });
}

/** The QR code of the link as an SVG data URL; the encoder is loaded only when a code is shown. */
function useQrCode(link: string | undefined): string | undefined {
  const [qr, setQr] = useState<{ link: string; url: string }>();
  useEffect(() => {
    if (!link) return;
    let current = true;
    import('qrcode')
      .then((QRCode) => QRCode.toString(link, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }))
      .then((svg) => {
        if (current) setQr({ link, url: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` });
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [link]);
  return qr && qr.link === link ? qr.url : undefined;
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box
      sx={{ display: 'grid', gridTemplateColumns: { xs: '112px 1fr', sm: '150px 1fr' }, columnGap: 2, rowGap: 0.25 }}
    >
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </Box>
  );
}

function StatusDetails({ status }: { status: ParentAccessStatus }) {
  const { t } = useTranslation('parents');
  return (
    <Stack component="dl" spacing={1} sx={{ m: 0 }}>
      <Field label={t('parent')}>{status.parent_name || '-'}</Field>
      <Field label={t('phone')}>{status.phone}</Field>
      <Field label={t('children')}>
        <Box component="span" sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
          {status.children.map((child) => (
            <Chip
              key={child.id}
              size="small"
              label={t('child', { name: child.full_name, className: child.class_name })}
            />
          ))}
        </Box>
      </Field>
      <Field label={t('accessCode')}>
        {status.has_code
          ? status.issued_by
            ? t('issuedBy', { date: formatDayTime(status.issued_at), by: status.issued_by })
            : t('issued', { date: formatDayTime(status.issued_at) })
          : t('notIssued')}
      </Field>
      <Field label={t('lastSignIn')}>
        {status.last_sign_in_at ? formatDayTime(status.last_sign_in_at) : t('never')}
      </Field>
      <Field label={t('notificationsOn')}>{notificationsText(t, status.devices_with_notifications)}</Field>
    </Stack>
  );
}

/** What a parent takes home: printed alone (the rest of the page is hidden while printing). */
function PrintCard({ issued, link, qr }: { issued: ParentAccessIssued; link: string; qr: string | undefined }) {
  const { t } = useTranslation('parents');
  return createPortal(
    <div className={PRINT_CLASS}>
      <GlobalStyles
        styles={{
          '@media screen': { [`.${PRINT_CLASS}`]: { display: 'none' } },
          '@media print': {
            [`body > *:not(.${PRINT_CLASS})`]: { display: 'none !important' },
            [`.${PRINT_CLASS}`]: { display: 'block' },
          },
        }}
      />
      <div
        style={{
          fontFamily: 'Arial, Helvetica, sans-serif',
          color: '#000',
          maxWidth: '120mm',
          margin: '0 auto',
          border: '1px solid #000',
          borderRadius: 8,
          padding: '8mm',
          textAlign: 'center',
        }}
      >
        <div style={{ fontSize: 24, fontWeight: 700 }}>{t('card.brand')}</div>
        <div style={{ fontSize: 14, marginBottom: 12 }}>{t('card.title')}</div>
        <div style={{ fontSize: 16, fontWeight: 600 }}>
          {issued.children
            .map((child) => t('card.child', { name: child.full_name, className: child.class_name }))
            .join(', ')}
        </div>
        <div style={{ fontSize: 14, margin: '8px 0' }}>{t('card.phone', { phone: issued.phone })}</div>
        <div style={{ fontSize: 12 }}>{t('card.accessCode')}</div>
        <div
          style={{
            fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
            fontSize: 32,
            fontWeight: 700,
            letterSpacing: 4,
          }}
        >
          {issued.code}
        </div>
        {qr && <img src={qr} alt="" style={{ width: '50mm', height: '50mm', margin: '8px auto', display: 'block' }} />}
        <div style={{ fontSize: 14, marginTop: 8 }}>{t('card.instructions')}</div>
        <div style={{ fontSize: 10, marginTop: 8, wordBreak: 'break-all' }}>{link}</div>
      </div>
    </div>,
    document.body,
  );
}

/**
 * The code just issued. `replaced`: the family had a code before (its devices were signed out and
 * told), which the notice says in a language other than English; in English it is the server's.
 */
function IssuedCode({
  issued,
  replaced,
  link,
  qr,
}: {
  issued: ParentAccessIssued;
  replaced: boolean;
  link: string;
  qr: string | undefined;
}) {
  const { t } = useTranslation('parents');
  const { showToast } = useToast();
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      showToast(t('copied'), 'success');
    } catch {
      // Refused outside secure origins and without permission; the text stays selectable.
      showToast(t('copyFailed'), 'error');
    }
  };
  const [block, setBlock] = useState<HTMLDivElement | null>(null);
  // On a phone the status fills the screen: bring the new code into view.
  useEffect(() => {
    block?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
  }, [block]);
  return (
    <Stack spacing={2} ref={setBlock}>
      <Alert severity="warning">{serverMessage(issued.message, () => t(replaced ? 'issuedNew' : 'issuedFirst'))}</Alert>
      <Stack direction={{ xs: 'column-reverse', sm: 'row' }} spacing={2} sx={{ alignItems: 'center' }}>
        <Box
          sx={{
            width: 168,
            height: 168,
            flexShrink: 0,
            display: 'grid',
            placeItems: 'center',
            bgcolor: '#fff',
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
          }}
        >
          {qr ? (
            <img src={qr} alt={t('qrAlt')} width={160} height={160} />
          ) : (
            <Skeleton variant="rectangular" width={160} height={160} />
          )}
        </Box>
        <Stack spacing={1} sx={{ minWidth: 0, width: '100%' }}>
          <Typography variant="caption" color="text.secondary" component="div">
            {t('accessCode')}
          </Typography>
          <Typography
            component="div"
            data-testid="access-code"
            sx={{
              fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
              fontSize: { xs: 30, sm: 36 },
              fontWeight: 700,
              letterSpacing: 3,
              lineHeight: 1.2,
              userSelect: 'all',
            }}
          >
            {issued.code}
          </Typography>
          <Typography variant="caption" color="text.secondary" component="div">
            {t('signInLink')}
          </Typography>
          <Typography
            component="div"
            variant="body2"
            sx={{
              fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
              overflowWrap: 'anywhere',
              userSelect: 'all',
            }}
          >
            {link}
          </Typography>
        </Stack>
      </Stack>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        <Button variant="outlined" size="small" startIcon={<LinkIcon />} onClick={() => void copy(link)}>
          {t('copyLink')}
        </Button>
        <Button variant="outlined" size="small" startIcon={<ContentCopyIcon />} onClick={() => void copy(issued.code)}>
          {t('copyCode')}
        </Button>
        <Button variant="outlined" size="small" startIcon={<PrintIcon />} onClick={() => window.print()}>
          {t('print')}
        </Button>
        <WhatsappShareLink family={issued} sx={{ px: 1 }} />
      </Box>
      <PrintCard issued={issued} link={link} qr={qr} />
    </Stack>
  );
}

/**
 * Parent Access: the state of a student's parent's access, and a code to hand over. A code is
 * shown once; while it is on screen only the Close button closes the dialog.
 */
export function ParentAccessDialog({
  student,
  onClose,
}: {
  student: { id: number; full_name: string };
  onClose: () => void;
}) {
  const { t } = useTranslation('parents');
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const access = useParentAccess(student.id);
  const issue = useIssueParentAccess(student.id);
  const [issued, setIssued] = useState<ParentAccessIssued>();
  // Whether the code issued replaced one: the family had a code when it was asked for.
  const [replaced, setReplaced] = useState(false);
  const [issueError, setIssueError] = useState<string>();
  const link = issued ? signInLinkFor(window.location.origin, issued.phone, issued.code) : undefined;
  const qr = useQrCode(link);
  const status = access.data;
  // A teacher issues a family's first code; replacing one is an admin's (ADR 018).
  const mayIssue = status !== undefined && (!status.has_code || status.can_replace_code);

  const issueCode = () => {
    if (!status) return;
    if (status.has_code && !window.confirm(regenerateConfirmText(t, status))) return;
    setIssueError(undefined);
    const replacing = status.has_code;
    issue.mutate(undefined, {
      onSuccess: (answer) => {
        setReplaced(replacing);
        setIssued(answer);
      },
      onError: (error) => setIssueError(errorText(error, t('issueFailed'))),
    });
  };

  let body: ReactNode;
  if (access.isPending) {
    body = <DialogSpinner label={t('loading')} />;
  } else if (access.isError) {
    body = <Alert severity="error">{errorText(access.error, t('loadFailed'))}</Alert>;
  } else {
    body = (
      <Stack spacing={2.5}>
        <StatusDetails status={access.data} />
        {!mayIssue && !issued && <Alert severity="info">{t('adminReplaces')}</Alert>}
        {issued && link && <IssuedCode issued={issued} replaced={replaced} link={link} qr={qr} />}
      </Stack>
    );
  }

  return (
    <Dialog
      open
      onClose={() => {
        if (!issued && !issue.isPending) onClose();
      }}
      fullWidth
      maxWidth="sm"
      fullScreen={fullScreen}
      aria-labelledby="parent-access-title"
    >
      <DialogTitle id="parent-access-title">
        {t('title')}
        <Typography variant="body2" color="text.secondary" component="span" sx={{ display: 'block' }}>
          {student.full_name}
        </Typography>
      </DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          {issueError && <Alert severity="error">{issueError}</Alert>}
          {body}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onClose} disabled={issue.isPending} variant={status?.has_code ? 'contained' : 'text'}>
          {t('close')}
        </Button>
        {(status === undefined || mayIssue) && (
          <Button
            // A family that has its code needs no new one: replacing it (which signs its devices out) is
            // the secondary action, behind a confirmation (issue 28, item 6).
            variant={status?.has_code ? 'text' : 'contained'}
            color={status?.has_code ? 'warning' : 'primary'}
            sx={status?.has_code ? { order: -1, mr: 'auto' } : undefined}
            startIcon={issue.isPending ? <CircularProgress size={16} color="inherit" aria-hidden /> : <KeyIcon />}
            onClick={issueCode}
            disabled={!status || issue.isPending}
          >
            {status?.has_code ? t('regenerate') : t('issue')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
