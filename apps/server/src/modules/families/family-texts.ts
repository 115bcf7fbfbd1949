import type { ALERT_STATUSES, ParentLanguage } from '@tuitiondesk/contract';
import { formatErrorText } from '@tuitiondesk/contract/error-codes';
import bn from '@tuitiondesk/contract/texts/families/bn.json';
import en from '@tuitiondesk/contract/texts/families/en.json';
import hi from '@tuitiondesk/contract/texts/families/hi.json';
import mr from '@tuitiondesk/contract/texts/families/mr.json';
import ta from '@tuitiondesk/contract/texts/families/ta.json';
import ur from '@tuitiondesk/contract/texts/families/ur.json';
import { readableDateIn } from '../../lib/time';

type AlertStatus = (typeof ALERT_STATUSES)[number];
export type LeaveDecision = 'approved' | 'declined';

/**
 * The words the server itself writes to a family, in each language the family may read (the words are
 * the glossary's, docs/i18n/glossary.md), from `packages/contract/texts/families/` (ADR 041). English is
 * exactly the product's English. What the centre writes (a template's text, a notice, remarks, names)
 * is never here: it is sent as written.
 */
export interface FamilyTexts {
  /** The status word an alert's {status} is filled with. */
  status: Record<AlertStatus, string>;
  /**
   * A class as {class} is filled with: the spec's "Class 7" in the family's language (the class word,
   * then the value), or a class the centre labelled itself (`label`: "Morning batch", "Class 11 – A",
   * ADR 043) as the centre wrote it, never "Class Morning batch".
   */
  className: (name: string, label?: string) => string;
  /** {class} for a notice to every class. */
  allClasses: string;
  /** An alert's words when the centre has no template for it: the default template's text, filled. */
  alertBody: (values: { student_name: string; status: string; date: string }) => string;
  /** After an alert's text, the teacher's remarks as written (with a leading space). */
  remarks: (remarks: string) => string;
  /** The alerts' subjects while the centre keeps the default ones ("Absence alert", "Late arrival"). */
  alertSubjects: { absence_alert: string; late_alert: string };
  /** The notice a family's devices show when its access to the parent app changed. */
  accessNoticeSubject: string;
  codeReplacedNotice: string;
  phoneChangedNotice: (childName: string) => string;
  /**
   * A leave request the centre decided, told in the parent app: its subject and its words; `from` and
   * `to` are days as the family reads them, `to` null for one day.
   */
  leaveDecided: {
    subject: Record<LeaveDecision, string>;
    notice: (decision: LeaveDecision, child: string, from: string, to: string | null) => string;
  };
  /** The WhatsApp reply confirming a family's START or STOP. */
  whatsappOn: (centreName: string) => string;
  whatsappOff: (centreName: string) => string;
  /** A printed slip that gives a family the parent app (ADR 047): its title, three steps, and a share text. */
  slip: (values: { centre: string; phone: string; code: string }) => {
    title: string;
    steps: [string, string, string];
    share_text: string;
  };
}

type FamilyTextKey = keyof typeof en;

/**
 * The texts of each language, as written in `packages/contract/texts/families/<lang>.json` (ADR 041),
 * in the contract's ICU form; a language's missing text falls back to English. `alert_body` is the
 * default text of the absence and late alert templates a new centre's database starts with (the
 * migrations seeded it; a test holds the two equal), and the alert's words when a centre has none.
 */
export const FAMILY_TEXTS: Record<ParentLanguage, Readonly<Record<string, string>>> = { en, hi, mr, ta, bn, ur };

function wordsIn(language: ParentLanguage): FamilyTexts {
  const texts = FAMILY_TEXTS[language];
  const text = (key: FamilyTextKey, params: Record<string, string> = {}): string =>
    formatErrorText(texts[key] ?? en[key], params);
  return {
    status: { absent: text('status.absent'), late: text('status.late') },
    className: (name, label) => (label !== undefined && label !== `Class ${name}` ? label : text('class', { name })),
    allClasses: text('all_classes'),
    remarks: (remarks) => text('remarks', { remarks }),
    alertBody: (values) => text('alert_body', values),
    alertSubjects: {
      absence_alert: text('alert_subject.absence_alert'),
      late_alert: text('alert_subject.late_alert'),
    },
    accessNoticeSubject: text('access.subject'),
    codeReplacedNotice: text('access.code_replaced'),
    phoneChangedNotice: (child) => text('access.phone_changed', { child }),
    leaveDecided: {
      subject: { approved: text('leave.subject.approved'), declined: text('leave.subject.declined') },
      notice: (decision, child, from, to) =>
        to === null ? text(`leave.${decision}`, { child, from }) : text(`leave.${decision}_days`, { child, from, to }),
    },
    whatsappOn: (centre) => text('whatsapp.on', { centre }),
    whatsappOff: (centre) => text('whatsapp.off', { centre }),
    slip: (values) => ({
      title: text('slip.title', values),
      steps: [text('slip.step1', values), text('slip.step2', values), text('slip.step3', values)],
      share_text: text('slip.share', values),
    }),
  };
}

const ENGLISH = wordsIn('en');
const TEXTS = Object.fromEntries(
  (Object.keys(FAMILY_TEXTS) as ParentLanguage[]).map((language) => [language, wordsIn(language)]),
) as Record<ParentLanguage, FamilyTexts>;

/** The server's own words for a family reading `language` (English for a language it does not know). */
export function familyTexts(language: ParentLanguage): FamilyTexts {
  return TEXTS[language] ?? ENGLISH;
}

/** An alert's status word for the family: the glossary's word for absent and late, else the status as stored. */
export function statusWord(status: string, language: ParentLanguage): string {
  const words: Record<string, string> = familyTexts(language).status;
  return words[status] ?? status;
}

/** A day as a family reading `language` reads it: English "23 Nov 2026", else the language's own form. */
export function familyDate(isoDate: string, language: ParentLanguage): string {
  return readableDateIn(isoDate, language);
}
