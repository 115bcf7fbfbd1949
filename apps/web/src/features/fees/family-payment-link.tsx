import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import LinkIcon from '@mui/icons-material/Link';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Link,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useId, useState } from 'react';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { formatMoney } from '../../lib/money';
import { usePaymentLink } from './api';

/** WhatsApp's click-to-chat link (as the parents' share link): the family's phone in digits, the text and the link. */
function whatsappShareLink(phone: string, text: string, link: string): string {
  return `https://wa.me/${phone.replace(/\D/g, '')}?text=${encodeURIComponent(`${text}\n${link}`)}`;
}

/**
 * "Payment link": a Razorpay Payment Link for the family's balance (POST
 * /fees/families/{id}/payment-link), to copy or to send on WhatsApp from the admin's own phone. When
 * online payment is off the server says so (409 payments.online_off) and that is what is shown.
 */
export function PaymentLinkButton({
  familyId,
  phone,
  parentName,
}: {
  familyId: number;
  phone: string;
  parentName: string;
}) {
  const { t } = useTranslation('fees');
  const titleId = useId();
  const link = usePaymentLink();
  const [open, setOpen] = useState(false);
  const [copied, setCopied] = useState(false);

  function ask() {
    setOpen(true);
    setCopied(false);
    link.mutate(familyId);
  }

  async function copy(url: string) {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  const answer = link.data;
  return (
    <>
      <Button startIcon={<LinkIcon />} onClick={ask}>
        {t('link.open')}
      </Button>
      {open && (
        <Dialog open onClose={() => setOpen(false)} fullWidth maxWidth="xs" aria-labelledby={titleId}>
          <DialogTitle id={titleId}>{t('link.title', { name: parentName })}</DialogTitle>
          <DialogContent>
            {link.isPending && <Typography>{t('link.making')}</Typography>}
            {link.isError && <Alert severity="warning">{errorText(link.error, t('link.failed'))}</Alert>}
            {answer && (
              <Stack spacing={2} sx={{ pt: 1 }}>
                <Typography>{t('link.amount', { amount: formatMoney(answer.amount_paise) })}</Typography>
                <TextField
                  label={t('link.url')}
                  value={answer.url}
                  slotProps={{ htmlInput: { readOnly: true, dir: 'ltr' } }}
                  onFocus={(event) => event.target.select()}
                />
                <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
                  <Button startIcon={<ContentCopyIcon />} onClick={() => void copy(answer.url)}>
                    {t('link.copy')}
                  </Button>
                  <Link
                    href={whatsappShareLink(
                      phone,
                      t('link.shareText', { amount: formatMoney(answer.amount_paise) }),
                      answer.url,
                    )}
                    target="_blank"
                    rel="noopener noreferrer"
                    sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
                  >
                    <WhatsAppIcon fontSize="small" />
                    {t('link.whatsapp')}
                  </Link>
                </Stack>
                {copied && (
                  <Typography role="status" color="success.main">
                    {t('link.copied')}
                  </Typography>
                )}
              </Stack>
            )}
          </DialogContent>
          <DialogActions>
            <Button variant="contained" onClick={() => setOpen(false)}>
              {t('close')}
            </Button>
          </DialogActions>
        </Dialog>
      )}
    </>
  );
}
