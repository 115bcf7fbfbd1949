-- A family's state, for GST's place of supply (issue 29, ADR 063). Tuition to a family that lives
-- in another state (online classes, a family across a state border) is an inter-state supply: IGST,
-- not CGST and SGST. No row: the family is in the centre's own state, as almost every family is.
-- Set by an admin, audited; a change applies from the family's next payment (an issued receipt's
-- figures are fixed, migration 0036).
CREATE TABLE fee_family_states (
  family_id integer PRIMARY KEY REFERENCES fee_families (id),
  state_code text NOT NULL CHECK (state_code ~ '^[0-9]{2}$'),
  updated_at timestamptz NOT NULL DEFAULT now()
);
SELECT audit_table('fee_family_states', ignored => ARRAY['updated_at'], key_column => 'family_id');

-- The family's statement and details are versioned answers (migration 0037): a change of state shows at once.
CREATE TRIGGER fee_family_states_inserted_version AFTER INSERT ON fee_family_states REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('fees');
CREATE TRIGGER fee_family_states_updated_version AFTER UPDATE ON fee_family_states REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('fees');
CREATE TRIGGER fee_family_states_deleted_version AFTER DELETE ON fee_family_states REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('fees');
CREATE TRIGGER fee_family_states_truncated_version AFTER TRUNCATE ON fee_family_states
  FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('fees');

-- The state of supply each tax invoice was issued for; null on invoices issued before this migration,
-- which were all intra-state (the centre's state, `state_code`).
ALTER TABLE fee_receipt_taxes ADD COLUMN supply_state_code text CHECK (supply_state_code ~ '^[0-9]{2}$');
