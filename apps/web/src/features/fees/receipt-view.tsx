import DownloadIcon from '@mui/icons-material/Download';
import PrintIcon from '@mui/icons-material/Print';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  GlobalStyles,
  Stack,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { Centre, Receipt, ReceiptCreditNote, ReceiptTax } from '@tuitiondesk/contract';
import { Fragment, type ReactNode, useId, useState } from 'react';
import { createPortal } from 'react-dom';
import { LtrText } from '../../components/data-text';
import { DialogSpinner } from '../../components/dialog-spinner';
import { NotLoaded } from '../../components/not-loaded';
import { useTranslation } from '../../i18n';
import { errorText, saveFile } from '../../lib/api-client';
import { formatDay } from '../../lib/dates';
import { formatMoney } from '../../lib/money';
import { settingQuery } from '../../lib/settings-query';
import { fetchReceiptPdf, receiptQuery } from './api';
import { ReverseDialog } from './payment-reverse-dialog';

const PRINT_CLASS = 'fee-receipt-print';

/** `R/2026-27/000123` → `R-2026-27-000123.pdf`. */
export function receiptFileName(receiptNumber: string): string {
  return `${receiptNumber.replace(/[/\\]/g, '-')}.pdf`;
}

/** The receipt itself: on screen in the dialog, and alone on the printed page. */
function ReceiptBody({ receipt, headingId }: { receipt: Receipt; headingId?: string }) {
  const { t } = useTranslation('fees');
  // The centre's logo, read as the centre's settings screen reads it (same key: one request for both).
  const centre = useQuery(settingQuery<Centre>('/settings/centre', ['settings', 'centre'], 60_000)).data;
  const name = (studentId: number | null) =>
    studentId === null
      ? t('collect.toAdvance')
      : (receipt.students.find((student) => student.id === studentId)?.full_name ?? String(studentId));
  const row = (label: string, value: ReactNode) => (
    <Box sx={{ display: 'grid', gridTemplateColumns: 'minmax(7rem, 35%) 1fr', gap: 1, py: 0.25 }}>
      <Typography component="dt" color="text.secondary" variant="body2">
        {label}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
        {value}
      </Typography>
    </Box>
  );
  return (
    <Box>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
        {centre?.logo_url && (
          <img src={centre.logo_url} alt="" width={48} height={48} style={{ objectFit: 'contain' }} />
        )}
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h6" component="p" sx={{ fontWeight: 700 }}>
            {receipt.centre_name}
          </Typography>
          {receipt.tax?.supplier_address && (
            <Typography variant="body2" color="text.secondary" data-testid="receipt-supplier-address">
              {t('receipt.supplierAddress')}: {receipt.tax.supplier_address}
            </Typography>
          )}
          {/* The supplier's GSTIN beside its name and address (Rule 46), apart from the recipient's lines. */}
          {receipt.tax && (
            <Typography variant="body2" color="text.secondary" data-testid="receipt-supplier-gstin">
              {t('receipt.gstin')}: <LtrText>{receipt.tax.gstin}</LtrText>
            </Typography>
          )}
          <Typography variant="subtitle1" component="p" id={headingId}>
            {receipt.tax ? t('receipt.taxInvoice') : t('receipt.heading')} <LtrText>{receipt.receipt_number}</LtrText>
          </Typography>
        </Box>
      </Stack>
      {receipt.reversed && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('receipt.reversedOn', { date: formatDay(receipt.reversed_on), reason: receipt.reversal_reason ?? '' })}
        </Alert>
      )}
      {receipt.credit_note && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('receipt.creditNote', {
            number: receipt.credit_note.number,
            date: formatDay(receipt.credit_note.issued_on),
            invoice: receipt.receipt_number,
          })}
        </Alert>
      )}
      <Box component="dl" sx={{ m: 0 }}>
        {row(t('receipt.date'), formatDay(receipt.received_on))}
        {row(t('receipt.family'), receipt.parent_name)}
        {row(t('receipt.phone'), <LtrText>{receipt.parent_phone}</LtrText>)}
        {row(t('receipt.children'), receipt.students.map((student) => student.full_name).join(', '))}
        {row(t('receipt.amount'), <strong>{formatMoney(receipt.amount_paise)}</strong>)}
        {row(t('receipt.mode'), t(`modes.${receipt.mode}`))}
        {receipt.reference && row(t('receipt.reference'), <LtrText>{receipt.reference}</LtrText>)}
        {receipt.recorded_by && row(t('receipt.recordedBy'), receipt.recorded_by)}
        {receipt.tax && <RecipientRows tax={receipt.tax} row={row} />}
      </Box>
      {receipt.tax && <TaxLines tax={receipt.tax} creditNote={receipt.credit_note} row={row} />}
      <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
        {t('collect.allocated')}
      </Typography>
      <Box component="dl" sx={{ m: 0 }}>
        {receipt.allocations.map((allocation) => (
          <Fragment key={allocation.student_id ?? 'advance'}>
            {row(name(allocation.student_id), formatMoney(allocation.amount_paise))}
          </Fragment>
        ))}
      </Box>
      {receipt.tax && (
        <Box sx={{ mt: 3, textAlign: 'end' }} data-testid="receipt-signatory">
          <Typography variant="body2" sx={{ fontWeight: 700 }}>
            {t('receipt.signatureFor', { centre: receipt.centre_name })}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 4 }}>
            {t('receipt.signatory')}
          </Typography>
        </Box>
      )}
    </Box>
  );
}

type Row = (label: string, value: ReactNode) => ReactNode;
type TaxFigures = Pick<ReceiptTax, 'taxable_paise' | 'cgst_paise' | 'sgst_paise' | 'igst_paise'>;

/** Whom a tax invoice is billed to, as fixed when it was issued (ADR 065); a line it did not fix is not shown. */
function RecipientRows({ tax, row }: { tax: ReceiptTax; row: Row }) {
  const { t } = useTranslation('fees');
  return (
    <>
      {tax.recipient_name && row(t('receipt.billedTo'), tax.recipient_name)}
      {tax.recipient_address && row(t('receipt.billingAddress'), tax.recipient_address)}
      {tax.recipient_gstin && row(t('receipt.recipientGstin'), <LtrText>{tax.recipient_gstin}</LtrText>)}
    </>
  );
}

/**
 * A tax invoice's GST lines (ADR 057): SAC, place of supply, the taxable value and the tax in it;
 * and, when its reversal issued a credit note, the note's figures (the invoice's negated), as the PDF has them.
 */
function TaxLines({ tax, creditNote, row }: { tax: ReceiptTax; creditNote: ReceiptCreditNote | null; row: Row }) {
  const { t } = useTranslation('fees');
  return (
    <>
      <Box component="dl" sx={{ m: 0, mt: 1 }}>
        {row(t('receipt.sac'), <LtrText>{tax.sac}</LtrText>)}
        {row(t('receipt.placeOfSupply'), `${tax.place_of_supply_name} (${tax.place_of_supply_code})`)}
        {row(t('receipt.reverseCharge'), t('receipt.no'))}
        <TaxFigureRows tax={tax} figures={tax} row={row} />
      </Box>
      {creditNote && (
        <>
          <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
            {t('receipt.creditNoteSection', { number: creditNote.number })}
          </Typography>
          <Box component="dl" sx={{ m: 0 }}>
            <TaxFigureRows tax={tax} figures={creditNote} row={row} />
          </Box>
        </>
      )}
    </>
  );
}

/** The taxable value and the tax of `figures` (the invoice's, or its credit note's), at the invoice's rate. */
function TaxFigureRows({ tax, figures, row }: { tax: ReceiptTax; figures: TaxFigures; row: Row }) {
  const { t } = useTranslation('fees');
  const percent = (basisPoints: number) => String(basisPoints / 100);
  return (
    <>
      {row(t('receipt.taxable'), formatMoney(figures.taxable_paise))}
      {tax.igst_paise > 0 &&
        row(t('receipt.igst', { rate: percent(tax.rate_basis_points) }), formatMoney(figures.igst_paise))}
      {tax.igst_paise === 0 &&
        row(t('receipt.cgst', { rate: percent(tax.rate_basis_points / 2) }), formatMoney(figures.cgst_paise))}
      {tax.igst_paise === 0 &&
        row(t('receipt.sgst', { rate: percent(tax.rate_basis_points / 2) }), formatMoney(figures.sgst_paise))}
    </>
  );
}

/**
 * A payment's receipt (issue 29 item 5): the centre's name and logo, its number, the day, the family,
 * the amount, mode, reference and how it was allocated; "Reversed on …" when it was. Print puts the
 * receipt alone on the page (the console's chrome hidden, as the access slips print); Download PDF
 * asks the server for the same receipt as a PDF.
 */
export function ReceiptDialog({ paymentId, onClose }: { paymentId: number; onClose: () => void }) {
  const { t } = useTranslation('fees');
  const titleId = useId();
  const receipt = useQuery(receiptQuery(paymentId));
  const [pdfError, setPdfError] = useState<string | null>(null);
  const [downloading, setDownloading] = useState(false);
  const [reversing, setReversing] = useState(false);

  async function downloadPdf(number: string) {
    setPdfError(null);
    setDownloading(true);
    try {
      saveFile(await fetchReceiptPdf(paymentId), receiptFileName(number));
    } catch (error) {
      setPdfError(errorText(error, t('receipt.noPdf')));
    } finally {
      setDownloading(false);
    }
  }

  const data = receipt.data;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{t('receipt.title')}</DialogTitle>
      {/* A tax invoice is taller than a phone's screen: its scrolled body is reached by the keyboard too. */}
      <DialogContent tabIndex={0} role="region" aria-labelledby={titleId}>
        {data ? (
          <>
            <ReceiptBody receipt={data} />
            {pdfError && (
              <Alert severity="error" sx={{ mt: 2 }}>
                {pdfError}
              </Alert>
            )}
            {createPortal(
              <div className={PRINT_CLASS} data-testid="receipt-print">
                <GlobalStyles
                  styles={{
                    '@media screen': { [`.${PRINT_CLASS}`]: { display: 'none' } },
                    '@media print': {
                      '@page': { size: 'A5', margin: '10mm' },
                      [`body > *:not(.${PRINT_CLASS})`]: { display: 'none !important' },
                      [`.${PRINT_CLASS}`]: { display: 'block !important', color: '#000', maxWidth: '128mm' },
                    },
                  }}
                />
                <ReceiptBody receipt={data} />
              </div>,
              document.body,
            )}
          </>
        ) : receipt.isError ? (
          <NotLoaded text={errorText(receipt.error, t('receipt.loadFailed'))} onRetry={() => void receipt.refetch()} />
        ) : (
          <DialogSpinner />
        )}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        {data && !data.reversed && (
          <Button color="error" onClick={() => setReversing(true)}>
            {t('reverse.open')}
          </Button>
        )}
        <Box sx={{ flexGrow: 1 }} />
        {data && (
          <Button
            startIcon={<DownloadIcon />}
            disabled={downloading}
            onClick={() => void downloadPdf(data.receipt_number)}
          >
            {t('receipt.downloadPdf')}
          </Button>
        )}
        {data && (
          <Button startIcon={<PrintIcon />} onClick={() => window.print()}>
            {t('receipt.print')}
          </Button>
        )}
        <Button variant="contained" onClick={onClose}>
          {t('close')}
        </Button>
      </DialogActions>
      {reversing && data && (
        <ReverseDialog paymentId={paymentId} receiptNumber={data.receipt_number} onClose={() => setReversing(false)} />
      )}
    </Dialog>
  );
}
