import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import { Link, type SxProps, type Theme } from '@mui/material';
import { normaliseAccessCode, parentSignInLink } from '@tuitiondesk/contract';
import { useTranslation } from '../../i18n';

/** The parent app's link for this phone and code (the server sends the code as XXXX-XXXX). */
export function signInLinkFor(origin: string, phone: string, code: string): string {
  return parentSignInLink(origin, phone, normaliseAccessCode(code) ?? code);
}

/** WhatsApp's click-to-chat link: the family's phone in digits, the share text and the sign-in link filled in. */
export function whatsappShareLink(phone: string, shareText: string, link: string): string {
  return `https://wa.me/${phone.replace(/\D/g, '')}?text=${encodeURIComponent(`${shareText}\n${link}`)}`;
}

/** A family's code, as the server answered it: its phone, the code, and the words to share it with. */
export interface SharedCode {
  phone: string;
  parent_name: string;
  code: string;
  /** In the family's language, from the server (ADR 047). */
  share_text: string;
}

/**
 * "Share on WhatsApp": one family's code and sign-in link, sent from the staff member's own phone
 * (WhatsApp's click-to-chat, with the text in the family's language filled in). One piece for a class's
 * codes and for one family's (issue 28, item 6).
 */
export function WhatsappShareLink({ family, sx }: { family: SharedCode; sx?: SxProps<Theme> }) {
  const { t } = useTranslation('parents');
  const link = signInLinkFor(window.location.origin, family.phone, family.code);
  return (
    <Link
      href={whatsappShareLink(family.phone, family.share_text, link)}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={t('bulk.shareFor', { name: family.parent_name || family.phone })}
      sx={[{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }, ...(Array.isArray(sx) ? sx : [sx])]}
    >
      <WhatsAppIcon fontSize="small" />
      {t('bulk.share')}
    </Link>
  );
}
