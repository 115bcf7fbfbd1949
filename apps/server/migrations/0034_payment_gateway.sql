-- Issue 29 (ADR 053): online payment through Razorpay Payment Links. The links we made, every signed
-- webhook event as it came, and the gateway's payments we recorded (once each, by Razorpay's id).

-- A Payment Link for a family (one link covers all its children). `reference_id` is ours and unique
-- (Razorpay refuses a repeat too); `status` only moves forward: created → partially_paid → paid, or to
-- expired / cancelled, and never back (a late "created" changes nothing).
CREATE TABLE payment_links (
  id bigserial PRIMARY KEY,
  link_id text NOT NULL UNIQUE CHECK (link_id ~ '^plink_[A-Za-z0-9]{1,40}$'),
  reference_id text NOT NULL UNIQUE CHECK (length(reference_id) BETWEEN 1 AND 40),
  family_id integer NOT NULL REFERENCES fee_families (id),
  amount_paise bigint NOT NULL CHECK (amount_paise >= 100 AND amount_paise <= 1000000000),
  url text NOT NULL CHECK (length(url) BETWEEN 1 AND 500),
  status text NOT NULL DEFAULT 'created'
    CHECK (status IN ('created', 'partially_paid', 'paid', 'expired', 'cancelled')),
  -- Razorpay's order behind the link, once known: a payment.captured event names only it.
  order_id text CHECK (length(order_id) BETWEEN 1 AND 60),
  created_by integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- When the status last moved; a link closed in the last two days is still asked about.
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- When the reconciler last asked Razorpay about it: the least recently asked go first.
  checked_at timestamptz
);
CREATE INDEX payment_links_family_idx ON payment_links (family_id, status);
CREATE INDEX payment_links_reconcile_idx ON payment_links (checked_at NULLS FIRST, id);
CREATE UNIQUE INDEX payment_links_order_idx ON payment_links (order_id) WHERE order_id IS NOT NULL;

-- Every webhook event whose signature was right, as it came (the raw body the signature covers), once
-- per X-Razorpay-Event-Id. `applied_at` is set when it has been applied (or found to need nothing):
-- an event whose applying failed is applied again by the reconciler's next round.
CREATE TABLE payment_gateway_events (
  id bigserial PRIMARY KEY,
  event_id text NOT NULL UNIQUE CHECK (length(event_id) BETWEEN 1 AND 100),
  event text NOT NULL CHECK (length(event) BETWEEN 1 AND 100),
  raw_body text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  applied_at timestamptz,
  outcome text CHECK (length(outcome) <= 100)
);
CREATE INDEX payment_gateway_events_unapplied_idx ON payment_gateway_events (id) WHERE applied_at IS NULL;

-- A gateway payment recorded in the ledger: one row per Razorpay payment id, written in the same
-- transaction as the ledger's payment (whose idempotency key is `razorpay:<payment_id>`), whichever
-- of the webhook's events or the reconciler saw it first. Append-only as the ledger.
CREATE TABLE gateway_payments (
  payment_id text PRIMARY KEY CHECK (payment_id ~ '^pay_[A-Za-z0-9]{1,40}$'),
  link_id text NOT NULL REFERENCES payment_links (link_id),
  family_id integer NOT NULL REFERENCES fee_families (id),
  amount_paise bigint NOT NULL CHECK (amount_paise > 0 AND amount_paise <= 1000000000),
  method text CHECK (length(method) <= 40),
  transaction_id bigint NOT NULL REFERENCES ledger_transactions (id),
  found_by text NOT NULL CHECK (found_by IN ('webhook', 'reconciler')),
  recorded_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX gateway_payments_link_idx ON gateway_payments (link_id);
CREATE TRIGGER gateway_payments_append_only BEFORE UPDATE OR DELETE ON gateway_payments
  FOR EACH ROW EXECUTE FUNCTION refuse_ledger_change();
CREATE TRIGGER gateway_payments_no_truncate BEFORE TRUNCATE ON gateway_payments
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_ledger_change();

-- Links and recorded gateway payments are money changes: audited in the same transaction. The events
-- are the gateway's own words, kept whole in their table; they are not audited row by row.
SELECT audit_table('payment_links', ignored => ARRAY['updated_at', 'checked_at'], key_column => 'link_id');
SELECT audit_table('gateway_payments', key_column => 'payment_id');
