-- Credit notes (issue 29, ADR 057): reversing a payment whose receipt was a tax invoice issues a credit
-- note against it (Section 34), numbered in a series of its own, gapless per financial year (April to
-- March of the day it is issued), taken from the year's counter row locked in the reversal's own
-- transaction, as receipt numbers are (0032). Its figures are the invoice's tax figures negated, fixed
-- there: a later change of the GST settings never alters it. A payment has at most one credit note
-- (its primary key), however many reversals are asked at once. Append-only, as the ledger.
CREATE TABLE fee_credit_note_counters (
  financial_year text PRIMARY KEY CHECK (financial_year ~ '^[0-9]{4}-[0-9]{2}$'),
  last_number integer NOT NULL CHECK (last_number >= 0)
);
CREATE TABLE fee_credit_notes (
  payment_id bigint PRIMARY KEY REFERENCES fee_receipt_taxes (payment_id),
  credit_note_number text NOT NULL UNIQUE CHECK (length(credit_note_number) <= 16),
  reversal_id bigint NOT NULL UNIQUE REFERENCES ledger_transactions (id),
  issued_on date NOT NULL,
  taxable_paise bigint NOT NULL CHECK (taxable_paise <= 0),
  cgst_paise bigint NOT NULL CHECK (cgst_paise <= 0),
  sgst_paise bigint NOT NULL CHECK (sgst_paise <= 0),
  igst_paise bigint NOT NULL CHECK (igst_paise <= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TRIGGER fee_credit_notes_append_only BEFORE UPDATE OR DELETE ON fee_credit_notes
  FOR EACH ROW EXECUTE FUNCTION refuse_ledger_change();
CREATE TRIGGER fee_credit_notes_no_truncate BEFORE TRUNCATE ON fee_credit_notes
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_ledger_change();
SELECT audit_table('fee_credit_notes', key_column => 'payment_id', ignored => ARRAY['created_at']);
