-- A data version for fees (ADR 024's versions; issue 29's dues target): the fee reports (dues,
-- ageing, collections, a family and its statement) are answered as versioned answers, built once per
-- version and day and confirmed unchanged with a 304, instead of being summed from the ledger for
-- every request of every admin's screen. Any statement that adds to the ledger, records a payment,
-- moves a family's phone or raises a charge or late fee raises the version at its commit. The ledger's
-- tables refuse updates, deletes and truncation (migration 0032); they are watched for all four all
-- the same, as every watched table is.
INSERT INTO data_versions (kind, version)
VALUES ('fees', (extract(epoch FROM clock_timestamp()) * 1000000)::bigint);

DO $$
DECLARE
  watched text;
BEGIN
  FOREACH watched IN ARRAY ARRAY['ledger_transactions', 'ledger_entries', 'fee_payments', 'fee_families',
                                 'fee_charges', 'fee_late_fees']
  LOOP
    EXECUTE format(
      'CREATE TRIGGER %1$I AFTER INSERT ON %2$I REFERENCING NEW TABLE AS changed_rows
         FOR EACH STATEMENT EXECUTE FUNCTION note_data_change(''fees'')',
      watched || '_inserted_version', watched);
    EXECUTE format(
      'CREATE TRIGGER %1$I AFTER UPDATE ON %2$I REFERENCING NEW TABLE AS changed_rows
         FOR EACH STATEMENT EXECUTE FUNCTION note_data_change(''fees'')',
      watched || '_updated_version', watched);
    EXECUTE format(
      'CREATE TRIGGER %1$I AFTER DELETE ON %2$I REFERENCING OLD TABLE AS changed_rows
         FOR EACH STATEMENT EXECUTE FUNCTION note_data_change(''fees'')',
      watched || '_deleted_version', watched);
    EXECUTE format(
      'CREATE TRIGGER %1$I AFTER TRUNCATE ON %2$I FOR EACH STATEMENT EXECUTE FUNCTION note_data_change(''fees'')',
      watched || '_truncated_version', watched);
  END LOOP;
END;
$$;
