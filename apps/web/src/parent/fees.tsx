import type { ParentFees, ParentPayLink, ParentReceiptSummary } from '@tuitiondesk/contract';
import { useCallback, useEffect, useState } from 'react';
import { errorText, parentRead, parentRequest } from './api';
import { DataSentence } from './data-sentence';
import { feeDate, kindKey, Money, MoneySentence, modeKey } from './fees-money';
import { ReceiptView } from './fees-receipt';
import { shownLanguage, useParentTranslation } from './i18n';
import { keptWhen } from './inbox-state';
import { useAction } from './use-action';
import './styles/fees.css';

/**
 * Fees in the parent app (issue 29, ADR 059): the family's balance, a Pay button when the centre takes
 * payment online, the statement and the receipts, each receipt printable. Money arrives as integer
 * paise and is shown in the language in use (Intl, INR, Western digits).
 */

/** The statement's newest entries shown at first; "Show earlier" asks for this many more each time. */
export const FEES_ENTRIES_STEP = 50;

/** Leaves the app for the payment page, in this tab; the back button returns here. */
function openPaymentPage(url: string): void {
  window.location.assign(url);
}

export function Fees({ navigate = openPaymentPage }: { navigate?: (url: string) => void }) {
  const { t } = useParentTranslation();
  const [fees, setFees] = useState<ParentFees>();
  const [entries, setEntries] = useState(FEES_ENTRIES_STEP);
  // The failure itself: its text follows the language shown.
  const [loadError, setLoadError] = useState<unknown>();
  const [openReceipt, setOpenReceipt] = useState<number>();
  // When the answer is the copy this phone kept (the centre out of reach): from when.
  const [keptAt, setKeptAt] = useState<string>();

  const load = useCallback(async (count: number) => {
    try {
      const { body, keptAt: kept } = await parentRead<ParentFees>(`/parent/fees?entries=${count}`);
      setFees(body);
      setKeptAt(kept);
      setLoadError(undefined);
    } catch (caught) {
      setLoadError(caught);
    }
  }, []);

  useEffect(() => {
    void load(entries);
  }, [load, entries]);

  if (openReceipt !== undefined) {
    return <ReceiptView paymentId={openReceipt} onBack={() => setOpenReceipt(undefined)} />;
  }

  return (
    <section aria-labelledby="fees-title" className="fees">
      <div className="section-head">
        <h1 id="fees-title">{t('fees.title')}</h1>
      </div>
      {loadError !== undefined && (
        <p className="error" role="alert">
          {errorText(loadError, t('fees.loadFailed'))}
        </p>
      )}
      {!fees && loadError === undefined && <p className="muted">{t('fees.loading')}</p>}
      {fees && keptAt && (
        <p className="notice" role="status">
          {t('fees.kept', { when: keptWhen(keptAt) })}
        </p>
      )}
      {fees && (
        <>
          <Balance fees={fees} navigate={navigate} onPaid={() => void load(entries)} />
          <Statement fees={fees} onEarlier={() => setEntries((count) => count + FEES_ENTRIES_STEP)} />
          <Receipts receipts={fees.receipts} onOpen={setOpenReceipt} />
        </>
      )}
    </section>
  );
}

function Balance({
  fees,
  navigate,
  onPaid,
}: {
  fees: ParentFees;
  navigate: (url: string) => void;
  onPaid: () => void;
}) {
  const { t } = useParentTranslation();
  const balance = fees.balance_paise;
  const label = balance > 0 ? t('fees.owe') : balance < 0 ? t('fees.advance') : t('fees.nothingToPay');
  return (
    <div className={`card fees-balance ${balance > 0 ? 'owes' : 'settled'}`}>
      <p className="balance-line">
        <span className="balance-label">{label}</span>
        {balance !== 0 && (
          <span className="balance-figure">
            {/* A space between the two, for whoever reads the sentence as text. */} <Money paise={Math.abs(balance)} />
          </span>
        )}
      </p>
      {balance < 0 && <p className="muted">{t('fees.advanceHelp')}</p>}
      {balance > 0 && fees.can_pay_online && <PayButton fees={fees} navigate={navigate} onPaid={onPaid} />}
      {balance > 0 && !fees.can_pay_online && <p className="notice">{t('fees.payAtCentre')}</p>}
    </div>
  );
}

/**
 * Pay: the family's link when one was made already, else one made now (the server answers the open
 * link again rather than make a second), then the payment page in this tab: a page opened after a
 * server call would be stopped as a pop-up, and the back button returns here.
 */
function PayButton({
  fees,
  navigate,
  onPaid,
}: {
  fees: ParentFees;
  navigate: (url: string) => void;
  onPaid: () => void;
}) {
  const { t } = useParentTranslation();
  const { busy, error, run } = useAction();
  const label = <MoneySentence text="fees.pay" paise={fees.balance_paise} />;
  if (fees.pay) {
    return (
      <a className="primary pay" href={fees.pay.url} rel="noopener">
        {label}
      </a>
    );
  }
  return (
    <>
      <button
        type="button"
        className="primary pay"
        disabled={busy}
        onClick={() =>
          void run(
            async () => {
              const link = await parentRequest<ParentPayLink>('/parent/fees/pay-link', { method: 'POST' });
              navigate(link.url);
            },
            () => t('fees.payFailed'),
            onPaid,
          )
        }
      >
        {busy ? t('fees.paying') : label}
      </button>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

function Statement({ fees, onEarlier }: { fees: ParentFees; onEarlier: () => void }) {
  const { t } = useParentTranslation();
  const names = new Map(fees.students.map((student) => [student.id, student.full_name]));
  // The server writes an entry's description in English ("Tuition, 2026-10: late fee"): another
  // language says the entry by its kind and its child alone.
  const english = shownLanguage() === 'en';
  // Newest first to read; the server answers them oldest first (newest last), as the staff statement.
  const newestFirst = [...fees.entries].reverse();
  return (
    <>
      <h2 id="statement-title">{t('fees.statement')}</h2>
      {newestFirst.length === 0 ? (
        <p className="muted">{t('fees.noEntries')}</p>
      ) : (
        <ul className="card fee-entries" aria-labelledby="statement-title">
          {newestFirst.map((entry, index) => {
            const child = entry.student_id === null ? undefined : names.get(entry.student_id);
            const credit = entry.credit_paise > 0;
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: entries have no id; the list only ever grows at its end
              <li key={index} className="fee-entry">
                <time className="fee-date" dateTime={entry.date}>
                  {feeDate(entry.date)}
                </time>
                <span className="fee-what">
                  <span className="fee-kind">{t(kindKey(entry.kind))}</span>
                  {english && <bdi className="fee-description">{entry.description}</bdi>}
                  {child && (
                    <span className="fee-child">
                      <DataSentence text="fees.forChild" param="name">
                        <bdi>{child}</bdi>
                      </DataSentence>
                    </span>
                  )}
                </span>
                <span className={`fee-amount ${credit ? 'credit' : 'debit'}`}>
                  <Money paise={credit ? entry.credit_paise : entry.debit_paise} sign={credit ? '−' : ''} />
                </span>
                <span className="fee-running">
                  {entry.balance_paise < 0 ? (
                    <MoneySentence text="fees.advanceAfter" paise={-entry.balance_paise} />
                  ) : (
                    <MoneySentence text="fees.balanceAfter" paise={entry.balance_paise} />
                  )}
                </span>
              </li>
            );
          })}
        </ul>
      )}
      {fees.earlier_entries > 0 && (
        <button type="button" className="secondary" onClick={onEarlier}>
          {t('fees.earlier', { count: fees.earlier_entries })}
        </button>
      )}
    </>
  );
}

function Receipts({ receipts, onOpen }: { receipts: ParentReceiptSummary[]; onOpen: (id: number) => void }) {
  const { t } = useParentTranslation();
  return (
    <>
      <h2 id="receipts-title">{t('fees.receipts')}</h2>
      {receipts.length === 0 ? (
        <p className="muted">{t('fees.noReceipts')}</p>
      ) : (
        <ul className="card fee-receipts" aria-labelledby="receipts-title">
          {receipts.map((receipt) => (
            <li key={receipt.payment_id} className={`fee-receipt${receipt.reversed ? ' reversed' : ''}`}>
              <button
                type="button"
                className="link receipt-open"
                onClick={() => onOpen(receipt.payment_id)}
                aria-label={t('fees.openReceipt', { number: receipt.receipt_number })}
              >
                <bdi dir="ltr">{receipt.receipt_number}</bdi>
              </button>
              <time className="fee-date" dateTime={receipt.date}>
                {feeDate(receipt.date)}
              </time>
              <span className="fee-mode">{t(modeKey(receipt.mode))}</span>
              <span className="fee-amount">
                <Money paise={receipt.amount_paise} />
              </span>
              {receipt.reversed && <span className="reversed-mark">{t('fees.reversed')}</span>}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
