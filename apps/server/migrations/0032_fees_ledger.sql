-- Issue 29 (ADR 051): fees. One append-only, double-entry ledger in integer paise that every fees
-- report reads; the family's fee account; counter payments and their receipt numbers.

-- A family is the students who share a parent phone. Its fee account needs an id that outlives a
-- change of the phone on the records, so it gets one here, made on first use (familyIdForPhone).
-- `phone` may be cleared by an erasure (the money rows keep the id, never the phone).
CREATE TABLE fee_families (
  id serial PRIMARY KEY,
  phone text UNIQUE CHECK (phone ~ '^\+[1-9][0-9]{7,14}$'),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The account follows its family's phone (ADR 051). When no student holds the old phone any more:
-- the family moved to a new phone that has no account yet, so the account moves with it; or the phone
-- was erased (a scrubbed record holds '') or joined a family that has its own account, so the account
-- keeps its id and money but no phone. Row-level, after the statement: siblings moved together are seen
-- moved together. Deleting a student leaves the phone on the account, so a family re-entered finds it.
CREATE FUNCTION fee_family_follows_phone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM students WHERE parent_phone = OLD.parent_phone) THEN
    RETURN NULL;
  END IF;
  IF NEW.parent_phone <> '' AND NOT EXISTS (SELECT 1 FROM fee_families WHERE phone = NEW.parent_phone) THEN
    UPDATE fee_families SET phone = NEW.parent_phone WHERE phone = OLD.parent_phone;
  ELSE
    UPDATE fee_families SET phone = NULL WHERE phone = OLD.parent_phone;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER students_fee_family_follows_phone AFTER UPDATE OF parent_phone ON students
  FOR EACH ROW WHEN (OLD.parent_phone IS DISTINCT FROM NEW.parent_phone)
  EXECUTE FUNCTION fee_family_follows_phone();

-- One balanced transaction: a charge, a discount, a payment, a reversal… Its entries sum to zero
-- (checked at commit below). `idempotency_key` makes posting the same thing twice post it once.
-- `reverses` names the transaction this one undoes; a transaction is reversed at most once.
-- `due_on`: when a charge falls due (filled by the charge run); the dues and ageing count from it.
CREATE TABLE ledger_transactions (
  id bigserial PRIMARY KEY,
  idempotency_key text NOT NULL UNIQUE CHECK (length(idempotency_key) BETWEEN 1 AND 200),
  kind text NOT NULL CHECK (kind IN ('charge', 'discount', 'late_fee', 'payment', 'reversal', 'refund',
                                     'gateway_fee', 'correction')),
  family_id integer NOT NULL REFERENCES fee_families (id),
  occurred_on date NOT NULL,
  due_on date,
  description text NOT NULL CHECK (length(description) BETWEEN 1 AND 500),
  reverses bigint UNIQUE REFERENCES ledger_transactions (id),
  payment_mode text CHECK (payment_mode IN ('cash', 'upi', 'cheque', 'bank_transfer', 'card', 'online')),
  reference text CHECK (length(reference) BETWEEN 1 AND 100),
  -- No foreign key: removing a staff account must not touch (or be refused by) the money it recorded.
  created_by integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((kind = 'reversal') = (reverses IS NOT NULL)),
  CHECK (reverses IS NULL OR reverses < id)
);
CREATE INDEX ledger_transactions_family_idx ON ledger_transactions (family_id, occurred_on, id);
CREATE INDEX ledger_transactions_occurred_idx ON ledger_transactions (occurred_on, kind);

-- Debits are positive, credits negative, never zero. `student_id` names the child a receivable entry
-- is about; no foreign key, as the ledger keeps its amounts whatever happens to the record (a scrubbed
-- student keeps the row and its id; ADR 051).
CREATE TABLE ledger_entries (
  id bigserial PRIMARY KEY,
  transaction_id bigint NOT NULL REFERENCES ledger_transactions (id),
  account text NOT NULL CHECK (account IN ('receivable', 'tuition_income', 'late_fee_income', 'discounts',
                                           'gst_cgst', 'gst_sgst', 'gst_igst', 'cash', 'upi', 'cheque',
                                           'bank_transfer', 'card', 'gateway_clearing', 'gateway_fees')),
  student_id integer,
  amount_paise bigint NOT NULL CHECK (amount_paise <> 0 AND abs(amount_paise) <= 9007199254740991)
);
CREATE INDEX ledger_entries_transaction_idx ON ledger_entries (transaction_id);
CREATE INDEX ledger_entries_receivable_idx ON ledger_entries (transaction_id, student_id) WHERE account = 'receivable';

-- Append-only: no row of the ledger is ever changed or removed; a mistake is corrected by a reversing
-- transaction. (A restore loads rows into an empty database, which this allows.)
CREATE FUNCTION refuse_ledger_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'The fees ledger is append-only: % on % is refused; post a reversing transaction instead',
    TG_OP, TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER ledger_transactions_append_only BEFORE UPDATE OR DELETE ON ledger_transactions
  FOR EACH ROW EXECUTE FUNCTION refuse_ledger_change();
CREATE TRIGGER ledger_transactions_no_truncate BEFORE TRUNCATE ON ledger_transactions
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_ledger_change();
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION refuse_ledger_change();
CREATE TRIGGER ledger_entries_no_truncate BEFORE TRUNCATE ON ledger_entries
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_ledger_change();

-- At commit, each transaction written has at least two entries and they sum to zero. Deferred, so the
-- transaction row and its entries can be inserted one statement after another.
CREATE FUNCTION check_ledger_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  txn bigint := (to_jsonb(NEW) ->> TG_ARGV[0])::bigint;
  entries integer;
  total numeric;
BEGIN
  SELECT count(*), coalesce(sum(amount_paise), 0) INTO entries, total
    FROM ledger_entries WHERE transaction_id = txn;
  IF entries < 2 OR total <> 0 THEN
    RAISE EXCEPTION 'Ledger transaction % does not balance: % entries summing to % paise', txn, entries, total
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$$;
CREATE CONSTRAINT TRIGGER ledger_transactions_balanced AFTER INSERT ON ledger_transactions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION check_ledger_balanced('id');
CREATE CONSTRAINT TRIGGER ledger_entries_balanced AFTER INSERT ON ledger_entries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION check_ledger_balanced('transaction_id');

-- A payment's receipt: its number, gapless per financial year (April to March in the centre's zone),
-- taken from the year's counter row locked in the payment's own transaction, so a payment rolled back
-- leaves no gap. `request` is what the payment was asked with (a replay with other content is
-- refused) and `answer` what was answered (a replay gets the same). Append-only as the ledger.
CREATE TABLE fee_receipt_counters (
  financial_year text PRIMARY KEY CHECK (financial_year ~ '^[0-9]{4}-[0-9]{2}$'),
  last_number integer NOT NULL CHECK (last_number >= 0)
);
CREATE TABLE fee_payments (
  transaction_id bigint PRIMARY KEY REFERENCES ledger_transactions (id),
  receipt_number text NOT NULL UNIQUE CHECK (length(receipt_number) <= 16),
  family_id integer NOT NULL REFERENCES fee_families (id),
  amount_paise bigint NOT NULL CHECK (amount_paise > 0),
  mode text NOT NULL CHECK (mode IN ('cash', 'upi', 'cheque', 'bank_transfer', 'card', 'online')),
  reference text,
  received_on date NOT NULL,
  recorded_by integer,
  request jsonb NOT NULL,
  answer jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX fee_payments_family_idx ON fee_payments (family_id, received_on);
CREATE TRIGGER fee_payments_append_only BEFORE UPDATE OR DELETE ON fee_payments
  FOR EACH ROW EXECUTE FUNCTION refuse_ledger_change();
CREATE TRIGGER fee_payments_no_truncate BEFORE TRUNCATE ON fee_payments
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_ledger_change();

-- Every money change in the audit log, written in the same transaction by the audit triggers. Not
-- fee_families: an account made on first use is no change anyone decided, and its rows would keep a
-- phone the erasure of a family removes everywhere else.
SELECT audit_table('ledger_transactions');
SELECT audit_table('fee_payments', ignored => ARRAY['answer', 'request']);
