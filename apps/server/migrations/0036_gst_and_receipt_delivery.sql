-- GST on fees and receipts sent to families (issue 29, ADR 057).

-- The centre's GST registration: one row, changed by an admin, audited. A registered centre has a GSTIN.
CREATE TABLE fee_gst_settings (
  id integer PRIMARY KEY CHECK (id = 1),
  registered boolean NOT NULL DEFAULT false,
  gstin text CHECK (gstin ~ '^[0-9]{2}[A-Z0-9]{13}$'),
  rate_basis_points integer NOT NULL DEFAULT 1800 CHECK (rate_basis_points > 0 AND rate_basis_points <= 4000),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (NOT registered OR gstin IS NOT NULL)
);
INSERT INTO fee_gst_settings (id) VALUES (1);
SELECT audit_table('fee_gst_settings', ignored => ARRAY['updated_at']);

-- A tax invoice's figures, fixed in the payment's own transaction: a later change of the settings
-- never alters a receipt already issued. Append-only, as the payment itself.
CREATE TABLE fee_receipt_taxes (
  payment_id bigint PRIMARY KEY REFERENCES fee_payments (transaction_id),
  gstin text NOT NULL,
  state_code text NOT NULL,
  sac text NOT NULL,
  rate_basis_points integer NOT NULL CHECK (rate_basis_points > 0),
  taxable_paise bigint NOT NULL CHECK (taxable_paise >= 0),
  cgst_paise bigint NOT NULL CHECK (cgst_paise >= 0),
  sgst_paise bigint NOT NULL CHECK (sgst_paise >= 0),
  igst_paise bigint NOT NULL CHECK (igst_paise >= 0)
);
CREATE TRIGGER fee_receipt_taxes_append_only BEFORE UPDATE OR DELETE ON fee_receipt_taxes
  FOR EACH ROW EXECUTE FUNCTION refuse_ledger_change();
CREATE TRIGGER fee_receipt_taxes_no_truncate BEFORE TRUNCATE ON fee_receipt_taxes
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_ledger_change();
SELECT audit_table('fee_receipt_taxes', key_column => 'payment_id');

-- Each payment's receipt message, once: the payment's id is the key, so a replayed client_id, a
-- webhook seen twice or the reconciler finding it again queue nothing more.
CREATE TABLE fee_receipt_deliveries (
  payment_id bigint PRIMARY KEY REFERENCES fee_payments (transaction_id),
  message_id integer,
  queued_at timestamptz NOT NULL DEFAULT now()
);
