import type { Receipt } from '@tuitiondesk/contract';
import { useEffect, useState } from 'react';
import { API_BASE, errorText, parentRequest, TOKEN_KEY } from './api';
import { feeDate, Money, MoneySentence, modeKey } from './fees-money';
import { shownLanguage, useParentTranslation } from './i18n';
import { useAction } from './use-action';

/**
 * The receipt's PDF (ADR 057) in the language shown, saved as the server names it. Always with `lang`,
 * so the service worker never keeps it under the same address as the receipt's JSON.
 */
async function savePdf(paymentId: number): Promise<void> {
  const token = localStorage.getItem(TOKEN_KEY);
  const response = await fetch(`${API_BASE}/parent/fees/receipts/${paymentId}?lang=${shownLanguage()}`, {
    headers: {
      accept: 'application/pdf',
      'x-tuitiondesk-client': 'parent-app',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
  });
  if (!response.ok) throw new Error(`receipt PDF: ${response.status}`);
  const named = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = named ?? `receipt-${paymentId}.pdf`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** One receipt, laid out to print (the browser's Print), and its PDF to keep. */
export function ReceiptView({ paymentId, onBack }: { paymentId: number; onBack: () => void }) {
  const { t } = useParentTranslation();
  const [receipt, setReceipt] = useState<Receipt>();
  const [error, setError] = useState<unknown>();

  useEffect(() => {
    const controller = new AbortController();
    parentRequest<Receipt>(`/parent/fees/receipts/${paymentId}`, { signal: controller.signal })
      .then(setReceipt)
      .catch((caught: unknown) => {
        if ((caught as Error).name !== 'AbortError') setError(caught);
      });
    return () => controller.abort();
  }, [paymentId]);

  const pdf = useAction();
  const names = new Map(receipt?.students.map((student) => [student.id, student.full_name]));
  return (
    <section aria-labelledby="receipt-title" className="fees receipt-view">
      <div className="receipt-actions">
        <button type="button" className="link" onClick={onBack}>
          {t('fees.back')}
        </button>
        {receipt && (
          <span className="receipt-buttons">
            <button
              type="button"
              className="secondary"
              disabled={pdf.busy}
              onClick={() =>
                void pdf.run(
                  () => savePdf(paymentId),
                  () => t('fees.pdfFailed'),
                )
              }
            >
              {pdf.busy ? t('fees.pdfSaving') : t('fees.pdf')}
            </button>
            <button type="button" className="secondary print" onClick={() => window.print()}>
              {t('fees.print')}
            </button>
          </span>
        )}
      </div>
      {pdf.error && (
        <p className="error" role="alert">
          {pdf.error}
        </p>
      )}
      {error !== undefined && (
        <p className="error" role="alert">
          {errorText(error, t('fees.receiptLoadFailed'))}
        </p>
      )}
      {!receipt && error === undefined && <p className="muted">{t('fees.loading')}</p>}
      {receipt && (
        <article className="card receipt">
          <p className="receipt-centre">
            <bdi>{receipt.centre_name}</bdi>
          </p>
          {receipt.tax?.supplier_address && (
            <p className="muted">
              <bdi>{receipt.tax.supplier_address}</bdi>
            </p>
          )}
          {/* The supplier's GSTIN beside its name and address (Rule 46), apart from the recipient's lines. */}
          {receipt.tax && (
            <p className="muted">
              {t('fees.gstin')}: <bdi dir="ltr">{receipt.tax.gstin}</bdi>
            </p>
          )}
          <h1 id="receipt-title">
            {receipt.document === 'tax_invoice' ? t('fees.taxInvoice') : t('fees.receipt')}{' '}
            <bdi dir="ltr">{receipt.receipt_number}</bdi>
          </h1>
          {receipt.reversed && (
            <p className="error">
              {t('fees.reversedOn', { date: receipt.reversed_on ? feeDate(receipt.reversed_on) : '' })}
              {receipt.reversal_reason && (
                <>
                  {' '}
                  <bdi>{receipt.reversal_reason}</bdi>
                </>
              )}
              {receipt.credit_note && (
                <>
                  {' '}
                  {t('fees.creditNote', {
                    // Isolated left to right inside Urdu, as the receipt number is.
                    number: `\u2066${receipt.credit_note.number}\u2069`,
                    date: feeDate(receipt.credit_note.issued_on),
                  })}
                </>
              )}
            </p>
          )}
          <dl className="receipt-facts">
            <dt>{t('fees.receivedOn')}</dt>
            <dd>{feeDate(receipt.received_on)}</dd>
            <dt>{t('fees.receivedFrom')}</dt>
            <dd>
              <bdi>{receipt.parent_name}</bdi>
            </dd>
            <OptionalFact label={t('fees.billedTo')} value={receipt.tax?.recipient_name} />
            <OptionalFact label={t('fees.billingAddress')} value={receipt.tax?.recipient_address} />
            <OptionalFact label={t('fees.recipientGstin')} value={receipt.tax?.recipient_gstin} dir="ltr" />
            <dt>{t('fees.amount')}</dt>
            <dd className="receipt-amount">
              <Money paise={receipt.amount_paise} />
            </dd>
            <dt>{t('fees.paidBy')}</dt>
            <dd>
              {t(modeKey(receipt.mode))}
              {receipt.reference && (
                <>
                  {' '}
                  <bdi dir="ltr">{receipt.reference}</bdi>
                </>
              )}
            </dd>
            {receipt.allocations.map((allocation) => (
              <AllocationFacts
                key={allocation.student_id ?? 'advance'}
                name={allocation.student_id === null ? undefined : names.get(allocation.student_id)}
                paise={allocation.amount_paise}
              />
            ))}
            {receipt.tax && <TaxFacts tax={receipt.tax} />}
            <dt>{t('fees.balanceAfterPayment')}</dt>
            <dd>
              {receipt.balance_paise < 0 ? (
                <MoneySentence text="fees.advanceAfter" paise={-receipt.balance_paise} />
              ) : (
                <Money paise={receipt.balance_paise} />
              )}
            </dd>
          </dl>
          {receipt.tax && (
            <p className="receipt-signatory">
              <strong>{t('fees.signatureFor', { centre: `\u2068${receipt.centre_name}\u2069` })}</strong>
              <br />
              <span className="muted">{t('fees.signatory')}</span>
            </p>
          )}
        </article>
      )}
    </section>
  );
}

/** A GST-registered centre's tax block (ADR 057): the fee includes it; CGST and SGST are each half the rate. */
function TaxFacts({ tax }: { tax: NonNullable<Receipt['tax']> }) {
  const { t } = useParentTranslation();
  const percent = (basisPoints: number) =>
    new Intl.NumberFormat(`${shownLanguage()}-IN-u-nu-latn`, { style: 'percent', maximumFractionDigits: 2 }).format(
      basisPoints / 10_000,
    );
  const half = percent(tax.rate_basis_points / 2);
  return (
    <>
      <dt>{t('fees.sac')}</dt>
      <dd>
        <bdi dir="ltr">{tax.sac}</bdi>
      </dd>
      <dt>{t('fees.placeOfSupply')}</dt>
      <dd>
        {tax.place_of_supply_name} (<bdi dir="ltr">{tax.place_of_supply_code}</bdi>)
      </dd>
      <dt>{t('fees.reverseCharge')}</dt>
      <dd>{t('fees.reverseChargeNo')}</dd>
      <dt>{t('fees.taxable')}</dt>
      <dd>
        <Money paise={tax.taxable_paise} />
      </dd>
      {tax.igst_paise > 0 ? (
        <>
          <dt>{t('fees.igst', { rate: percent(tax.rate_basis_points) })}</dt>
          <dd>
            <Money paise={tax.igst_paise} />
          </dd>
        </>
      ) : (
        <>
          <dt>{t('fees.cgst', { rate: half })}</dt>
          <dd>
            <Money paise={tax.cgst_paise} />
          </dd>
          <dt>{t('fees.sgst', { rate: half })}</dt>
          <dd>
            <Money paise={tax.sgst_paise} />
          </dd>
        </>
      )}
    </>
  );
}

function AllocationFacts({ name, paise }: { name: string | undefined; paise: number }) {
  const { t } = useParentTranslation();
  return (
    <>
      <dt>{name === undefined ? t('fees.keptAsAdvance') : t('fees.forChild', { name })}</dt>
      <dd>
        <Money paise={paise} />
      </dd>
    </>
  );
}

/** A line of the receipt's facts that an invoice may not have fixed (ADR 065): none when it has no value. */
function OptionalFact({ label, value, dir }: { label: string; value: string | null | undefined; dir?: 'ltr' }) {
  if (!value) return null;
  return (
    <>
      <dt>{label}</dt>
      <dd>
        <bdi dir={dir}>{value}</bdi>
      </dd>
    </>
  );
}
