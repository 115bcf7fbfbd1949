/**
 * The fees module's public surface (issue 29): other modules, the app and the start-up code import
 * only this. The ledger (ADR 051) is written only through `postTransaction(s)` and `reverseTransaction`;
 * families, counter payments, receipts and the reports are ADR 051's, plans and the charge run ADR 052's,
 * reminders ADR 061's.
 */
export { ChargeRunLoop } from './charges-loop';
export { registerFeeExportRoutes } from './exports-routes';
export { type FamilyDetails, familiesDetails, familyDetails, familyOfStudent } from './fee-families';
export { fixReceiptTax } from './gst';
export {
  familyBalance,
  familyIdForPhone,
  LEDGER_ACCOUNTS,
  type LedgerAccount,
  LedgerInputError,
  type LedgerKind,
  lockFeeFamily,
  type NewTransaction,
  type OpenCharge,
  openCharges,
  type PaymentMode,
  type Posting,
  postTransaction,
  reverseTransaction,
} from './ledger';
export { registerFeeMatchTaskRoutes } from './match-tasks-routes';
export { type ParentPayLinks, registerParentFeeRoutes } from './parent-routes';
export { rupees } from './payment-words';
export { accountForMode, allocate, allocateAndRecordPayment, type PaymentInput, type PaymentResult } from './payments';
export { registerFeeRoutes } from './payments-routes';
export { recordCounterPayment, reversePayment } from './payments-service';
export { registerFeePlanRoutes } from './plans-routes';
export { deliverReceiptFor } from './receipt-delivery';
export { financialYear, getReceipt, getReceiptPdf, receiptNumber } from './receipts';
export { answerFeeReminder } from './reminder-replies';
export { type FeeWhatsappAnswer, receiveFeeFollowUpIn, receiveFeeTapIn } from './reminder-replies-whatsapp';
export { type ReminderPayLinks, runReminderRound } from './reminders';
export { FeeReminderLoop } from './reminders-loop';
export { registerFeeReminderRoutes } from './reminders-routes';
