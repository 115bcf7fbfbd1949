-- Issue 29 (ADR 053): one Payment Link per family at a time. Before asking Razorpay for a family's
-- link, a request reserves the family here (one row per family: the primary key decides between two
-- admins asking at the same instant, in any number of instances). The winner asks Razorpay and, in the
-- transaction that keeps the link, removes its reservation; a failed call removes it too. Others wait
-- for the link and answer it. A reservation older than a minute is a crashed request's (Razorpay is
-- given 10 s) and is taken over. No text column: it holds no one's words, and lives seconds.
CREATE TABLE payment_link_reservations (
  family_id integer PRIMARY KEY REFERENCES fee_families (id),
  amount_paise bigint NOT NULL CHECK (amount_paise > 0),
  token uuid NOT NULL,
  reserved_at timestamptz NOT NULL DEFAULT now()
);

-- The ledger's balance check (0032) without turning each new row into JSON to find its transaction's
-- id: the check runs once per transaction row and once per entry at commit, 30,000 times for a
-- charge run of 5,000 students, and the conversion was about half its cost (ADR 052). Same rule,
-- same triggers (still deferred to commit, still per row), same error.
CREATE OR REPLACE FUNCTION check_ledger_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  txn bigint;
  entries integer;
  total numeric;
BEGIN
  IF TG_TABLE_NAME = 'ledger_transactions' THEN
    txn := NEW.id;
  ELSE
    txn := NEW.transaction_id;
  END IF;
  SELECT count(*), coalesce(sum(amount_paise), 0) INTO entries, total
    FROM ledger_entries WHERE transaction_id = txn;
  IF entries < 2 OR total <> 0 THEN
    RAISE EXCEPTION 'Ledger transaction % does not balance: % entries summing to % paise', txn, entries, total
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$$;
