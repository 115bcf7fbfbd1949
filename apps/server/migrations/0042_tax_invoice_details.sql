-- What Rule 46 asks a tax invoice to carry beyond its figures (issue 29, ADR 065): the supplier's
-- address, the recipient's name and address (and GSTIN when the payer is a registered business), fixed
-- with each invoice as it was issued.

-- The centre's address, as on its GST registration: required when registering from now on; a centre
-- registered before this migration has none until an admin adds it (its invoices print no address line).
ALTER TABLE fee_gst_settings ADD COLUMN address text CHECK (length(address) <= 300);

-- A family's billing details for its tax invoices, set by an admin beside its state (fee_family_states,
-- migration 0041). No row: billed to the parent's name, no address, no GSTIN.
CREATE TABLE fee_family_gst_details (
  family_id integer PRIMARY KEY REFERENCES fee_families (id),
  billing_name text CHECK (length(billing_name) <= 120),
  billing_address text CHECK (length(billing_address) <= 300),
  billing_gstin text CHECK (billing_gstin ~ '^[0-9]{2}[A-Z0-9]{13}$'),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (billing_name IS NOT NULL OR billing_address IS NOT NULL OR billing_gstin IS NOT NULL)
);
SELECT audit_table('fee_family_gst_details', ignored => ARRAY['updated_at'], key_column => 'family_id');

-- The family's statement and details are versioned answers (migration 0037): a change shows at once.
CREATE TRIGGER fee_family_gst_details_inserted_version AFTER INSERT ON fee_family_gst_details REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('fees');
CREATE TRIGGER fee_family_gst_details_updated_version AFTER UPDATE ON fee_family_gst_details REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('fees');
CREATE TRIGGER fee_family_gst_details_deleted_version AFTER DELETE ON fee_family_gst_details REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('fees');
CREATE TRIGGER fee_family_gst_details_truncated_version AFTER TRUNCATE ON fee_family_gst_details
  FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('fees');

-- Each tax invoice's supplier address and recipient, as issued; null on invoices issued before this
-- migration (the invoice prints no such line).
ALTER TABLE fee_receipt_taxes ADD COLUMN supplier_address text;
ALTER TABLE fee_receipt_taxes ADD COLUMN recipient_name text;
ALTER TABLE fee_receipt_taxes ADD COLUMN recipient_address text;
ALTER TABLE fee_receipt_taxes ADD COLUMN recipient_gstin text;

-- A tax invoice stays append-only, with one exception: the erasure of a family no longer on record
-- (ADR 027) empties its recipient's name, address and GSTIN, and nothing else, in a transaction that
-- set tuitiondesk.fee_erasure locally (only fee_family_forget below does).
CREATE FUNCTION refuse_receipt_tax_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND coalesce(current_setting('tuitiondesk.fee_erasure', true), '') = 'on'
     AND NEW.recipient_name IS NULL AND NEW.recipient_address IS NULL AND NEW.recipient_gstin IS NULL
     AND to_jsonb(NEW) - ARRAY['recipient_name', 'recipient_address', 'recipient_gstin']
       = to_jsonb(OLD) - ARRAY['recipient_name', 'recipient_address', 'recipient_gstin'] THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'The fees ledger is append-only: % on % is refused; post a reversing transaction instead',
    TG_OP, TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END;
$$;
DROP TRIGGER fee_receipt_taxes_append_only ON fee_receipt_taxes;
CREATE TRIGGER fee_receipt_taxes_append_only BEFORE UPDATE OR DELETE ON fee_receipt_taxes
  FOR EACH ROW EXECUTE FUNCTION refuse_receipt_tax_change();

-- A family no longer on record (its last child scrubbed) loses its billing details and its invoices'
-- recipient, and the audit rows that showed them keep "[removed]" in their place: the deletion itself
-- is audited, then erased like the rest.
CREATE FUNCTION fee_family_forget(forgotten integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  was_erasure text := coalesce(current_setting('tuitiondesk.audit_erasure', true), '');
  fields text[] := ARRAY['billing_name', 'billing_address', 'billing_gstin', 'recipient_name', 'recipient_address',
                         'recipient_gstin'];
BEGIN
  DELETE FROM fee_family_gst_details WHERE family_id = forgotten;
  PERFORM set_config('tuitiondesk.fee_erasure', 'on', true);
  UPDATE fee_receipt_taxes t SET recipient_name = NULL, recipient_address = NULL, recipient_gstin = NULL
    FROM fee_payments p
   WHERE p.transaction_id = t.payment_id AND p.family_id = forgotten
     AND (t.recipient_name IS NOT NULL OR t.recipient_address IS NOT NULL OR t.recipient_gstin IS NOT NULL);
  PERFORM set_config('tuitiondesk.fee_erasure', '', true);
  PERFORM set_config('tuitiondesk.audit_erasure', 'on', true);
  UPDATE audit_log a SET before = audit_removed(a.before, fields), after = audit_removed(a.after, fields)
   WHERE (a.entity = 'fee_family_gst_details' AND a.record_id = forgotten::text)
      OR (a.entity = 'fee_receipt_taxes'
          AND a.record_id IN (SELECT p.transaction_id::text FROM fee_payments p WHERE p.family_id = forgotten));
  PERFORM set_config('tuitiondesk.audit_erasure', was_erasure, true);
END;
$$;

-- The account follows its family's phone (migration 0032), and now forgets the family's billing
-- details when the phone was erased (a scrubbed record holds '') and no record holds it any more.
CREATE OR REPLACE FUNCTION fee_family_follows_phone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM students WHERE parent_phone = OLD.parent_phone) THEN
    RETURN NULL;
  END IF;
  IF NEW.parent_phone <> '' AND NOT EXISTS (SELECT 1 FROM fee_families WHERE phone = NEW.parent_phone) THEN
    UPDATE fee_families SET phone = NEW.parent_phone WHERE phone = OLD.parent_phone;
  ELSE
    IF NEW.parent_phone = '' THEN
      PERFORM fee_family_forget(f.id) FROM fee_families f WHERE f.phone = OLD.parent_phone;
    END IF;
    UPDATE fee_families SET phone = NULL WHERE phone = OLD.parent_phone;
  END IF;
  RETURN NULL;
END;
$$;
