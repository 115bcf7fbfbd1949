import type {
  FeeReminderAnswer,
  FeeReminderReplyRequest,
  ParentFees,
  ParentInbox,
  ParentMessage,
} from '@tuitiondesk/contract';
import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { errorText, ParentApiError, parentRead, parentRequest } from './api';
import { centreToday } from './centre-clock';
import { DataSentence } from './data-sentence';
import { type ParentTextKey, shownLanguage, useParentTranslation } from './i18n';
import { ReplyButtons, type ReplyChoice } from './reply-buttons';

/**
 * A family's answer to a fee reminder (issue 29, ADR 061): "Paid already" with the payer's reference,
 * "Will pay on …" a day from tomorrow to PROMISE_MAX_DAYS ahead (the centre's days), or "Please call
 * me", sent at once. Once answered, the message says what was said. A reminder also offers Pay, to the
 * Fees tab, while the family owes.
 */

/**
 * The contract's FEE_PROMISE_MAX_DAYS, written out: the parent bundle takes no runtime from the
 * contract (a test checks they agree). The server holds the rule; this only bounds the date picker.
 */
export const PROMISE_MAX_DAYS = 60;

const FEE_REPLIES = ['paid', 'will_pay', 'call'] as const;
type FeeReplyKind = (typeof FEE_REPLIES)[number];
const LABELS: Record<FeeReplyKind, ParentTextKey> = {
  paid: 'feeReply.paid',
  will_pay: 'feeReply.willPay',
  call: 'replies.call',
};

/** A calendar day `days` after `day` (both `yyyy-MM-dd`). */
export function dayAfter(day: string, days: number): string {
  const [year = 1970, month = 1, date = 1] = day.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10);
}

/** A promised day `2026-12-05` as `5 December` in the language shown (no time zone shift). */
export function promiseDay(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  if (!year || !month || !day) return date;
  const language = shownLanguage();
  return new Intl.DateTimeFormat(language === 'en' ? 'en-GB' : `${language}-IN-u-nu-latn`, {
    day: 'numeric',
    month: 'long',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(year, month - 1, day)));
}

/** What the family answered, as the message shows it from then on. */
function Answered({ answer, already }: { answer: FeeReminderAnswer; already: boolean }) {
  const { t } = useParentTranslation();
  let said: ReactNode;
  if (answer.reply === 'paid' && answer.reference) {
    // The reference is data, written left to right inside a right-to-left sentence too.
    said = (
      <DataSentence text="feeReply.answeredPaid" param="reference">
        <bdi dir="ltr">{answer.reference}</bdi>
      </DataSentence>
    );
  } else if (answer.reply === 'paid') {
    said = t('feeReply.answeredPaidNoReference');
  } else if (answer.reply === 'will_pay') {
    said = t('feeReply.answeredWillPay', { date: promiseDay(answer.date ?? '') });
  } else {
    said = t('feeReply.answeredCall');
  }
  return (
    <p className="notice fee-answer" role="status">
      {already && <>{t('feeReply.already')} </>}
      {said}
    </p>
  );
}

/** Pay, to the Fees tab, while the family owes (its balance read when the reminder is opened). */
function PayLink({ onPay }: { onPay: () => void }) {
  const { t } = useParentTranslation();
  const [owes, setOwes] = useState(false);
  useEffect(() => {
    let live = true;
    parentRead<ParentFees>('/parent/fees?entries=1')
      .then(({ body }) => live && setOwes(body.balance_paise > 0))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  if (!owes) return null;
  return (
    <button type="button" className="primary fee-pay" onClick={onPay}>
      {t('feeReply.pay')}
    </button>
  );
}

export function FeeReply({
  message,
  onReplied,
  onPay,
}: {
  message: ParentMessage;
  onReplied: (message: ParentMessage) => void;
  onPay: () => void;
}) {
  const { t } = useParentTranslation();
  const id = useId();
  const [chosen, setChosen] = useState<FeeReplyKind>();
  const [sending, setSending] = useState<FeeReplyKind>();
  const [reference, setReference] = useState('');
  const [date, setDate] = useState('');
  // The server's words about the field (a 422), shown under it; anything else under the buttons.
  const [fieldError, setFieldError] = useState<string>();
  const [error, setError] = useState<string>();
  // A 409: answered already (another phone, WhatsApp); the answer then shown is that one.
  const [already, setAlready] = useState(false);

  if (message.fee_answer) {
    return (
      <>
        <Answered answer={message.fee_answer} already={already} />
        <PayLink onPay={onPay} />
      </>
    );
  }
  if (!message.can_fee_reply) return <PayLink onPay={onPay} />;

  const today = centreToday();
  const send = async (request: FeeReminderReplyRequest) => {
    setSending(request.reply);
    setError(undefined);
    setFieldError(undefined);
    try {
      onReplied(await parentRequest<ParentMessage>(`/parent/messages/${message.id}/fee-reply`, { json: request }));
    } catch (caught) {
      await showFailure(caught, request.reply);
    } finally {
      setSending(undefined);
    }
  };

  const showFailure = async (caught: unknown, reply: FeeReplyKind) => {
    const status = caught instanceof ParentApiError ? caught.status : undefined;
    if (status === 409) {
      const fresh = await parentRequest<ParentInbox>('/parent/messages').catch(() => undefined);
      const answered = fresh?.messages.find((candidate) => candidate.id === message.id);
      if (answered?.fee_answer) {
        setAlready(true);
        onReplied(answered);
        return;
      }
    }
    if (status === 0 || !navigator.onLine) setError(t('feeReply.offline'));
    else if (status === 422 && reply !== 'call') setFieldError(errorText(caught, t('replies.failed')));
    else setError(errorText(caught, t('replies.failed')));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen === 'paid') {
      if (!reference.trim()) setFieldError(t('feeReply.referenceNeeded'));
      else void send({ reply: 'paid', reference: reference.trim() });
    } else if (chosen === 'will_pay') {
      if (!date) setFieldError(t('feeReply.dateNeeded'));
      else void send({ reply: 'will_pay', date });
    }
  };

  const choose = (reply: FeeReplyKind) => {
    setError(undefined);
    setFieldError(undefined);
    if (reply === 'call') {
      setChosen(undefined);
      void send({ reply: 'call' });
    } else {
      setChosen(reply);
    }
  };

  const choices: ReplyChoice<FeeReplyKind>[] = FEE_REPLIES.map((reply) => ({
    key: reply,
    label: t(LABELS[reply]),
    opens: reply !== 'call',
  }));
  const fieldId = `${id}-field`;
  const errorId = `${id}-error`;
  return (
    <>
      <ReplyButtons
        id={`${id}-title`}
        title={t('feeReply.title')}
        choices={choices}
        sending={sending}
        sendingLabel={t('replies.sending')}
        chosen={chosen}
        error={error}
        onChoose={choose}
      >
        {chosen && (
          <form className="fee-reply-form" onSubmit={submit} noValidate>
            <label htmlFor={fieldId}>{t(chosen === 'paid' ? 'feeReply.reference' : 'feeReply.date')}</label>
            {chosen === 'paid' ? (
              <input
                id={fieldId}
                type="text"
                dir="ltr"
                maxLength={35}
                autoComplete="off"
                value={reference}
                aria-invalid={fieldError ? true : undefined}
                aria-describedby={fieldError ? errorId : undefined}
                onChange={(event) => setReference(event.target.value)}
              />
            ) : (
              <input
                id={fieldId}
                type="date"
                min={dayAfter(today, 1)}
                max={dayAfter(today, PROMISE_MAX_DAYS)}
                value={date}
                aria-invalid={fieldError ? true : undefined}
                aria-describedby={fieldError ? errorId : `${id}-help`}
                onChange={(event) => setDate(event.target.value)}
              />
            )}
            {chosen === 'will_pay' && !fieldError && (
              <p id={`${id}-help`} className="help">
                {t('feeReply.dateHelp', { days: PROMISE_MAX_DAYS })}
              </p>
            )}
            {fieldError && (
              <p id={errorId} className="error" role="alert">
                {fieldError}
              </p>
            )}
            <button type="submit" className="primary" disabled={sending !== undefined}>
              {sending ? t('replies.sending') : t('feeReply.send')}
            </button>
          </form>
        )}
      </ReplyButtons>
      <PayLink onPay={onPay} />
    </>
  );
}
