-- Fee reminders that never nag a payer (issue 29, ADR 061): the schedule, the reminders sent, the
-- families' answers (paid already, will pay on …, please call me) and the admins' match tasks.

ALTER TABLE messages DROP CONSTRAINT messages_kind_check;
ALTER TABLE messages ADD CONSTRAINT messages_kind_check
  CHECK (kind IN ('notice', 'absence_alert', 'late_alert', 'access_notice', 'leave_notice', 'whatsapp',
    'fee_reminder'));

-- The schedule: one row, changed by an admin, audited. `offsets` are days from a charge's due date
-- (negative before it). The last round's figures are the round's own, not settings: not audited.
CREATE TABLE fee_reminder_settings (
  id integer PRIMARY KEY CHECK (id = 1),
  enabled boolean NOT NULL DEFAULT true,
  offsets integer[] NOT NULL DEFAULT '{-3,0,3,7}'
    CHECK (cardinality(offsets) BETWEEN 1 AND 8 AND -30 <= ALL (offsets) AND 90 >= ALL (offsets)),
  hour integer NOT NULL DEFAULT 10 CHECK (hour BETWEEN 0 AND 23),
  last_run_at timestamptz,
  last_sent integer,
  last_skipped_paid integer,
  last_skipped_promised integer,
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO fee_reminder_settings (id) VALUES (1);
SELECT audit_table('fee_reminder_settings',
  ignored => ARRAY['updated_at', 'last_run_at', 'last_sent', 'last_skipped_paid', 'last_skipped_promised']);

-- One reminder per family, due date and day of the schedule: a round run twice, late, or by two
-- instances at once sends nothing twice. `balance_paise` is what the ledger said at the moment of sending.
CREATE TABLE fee_reminders (
  id bigserial PRIMARY KEY,
  family_id integer NOT NULL REFERENCES fee_families (id),
  due_on date NOT NULL,
  offset_days integer NOT NULL,
  balance_paise bigint NOT NULL CHECK (balance_paise > 0),
  message_id integer REFERENCES messages (id) ON DELETE SET NULL,
  sent_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (family_id, due_on, offset_days)
);
CREATE INDEX fee_reminders_message ON fee_reminders (message_id);

-- A family's answer to one reminder, once. A `will_pay` answer is a promise: the family's reminders
-- pause until `promised_on` (inclusive). `reference` is what a family that paid already gave (on
-- WhatsApp it comes in the parent's next text, so it may be filled later).
CREATE TABLE fee_reminder_answers (
  message_id integer PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
  family_id integer NOT NULL REFERENCES fee_families (id),
  reply text NOT NULL CHECK (reply IN ('paid', 'will_pay', 'call')),
  reference text CHECK (reference IS NULL OR char_length(reference) BETWEEN 1 AND 35),
  promised_on date,
  via text NOT NULL CHECK (via IN ('parent_app', 'whatsapp')),
  answered_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((reply = 'will_pay') = (promised_on IS NOT NULL))
);
CREATE INDEX fee_reminder_answers_promises ON fee_reminder_answers (family_id, promised_on)
  WHERE promised_on IS NOT NULL;

-- "Paid already": the admin finds the money and matches it to a payment, or dismisses the claim.
CREATE TABLE fee_match_tasks (
  id serial PRIMARY KEY,
  family_id integer NOT NULL REFERENCES fee_families (id),
  message_id integer UNIQUE REFERENCES messages (id) ON DELETE SET NULL,
  reference text CHECK (reference IS NULL OR char_length(reference) BETWEEN 1 AND 35),
  via text NOT NULL CHECK (via IN ('parent_app', 'whatsapp')),
  claimed_at timestamptz NOT NULL DEFAULT now(),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'matched', 'dismissed')),
  payment_id bigint REFERENCES fee_payments (transaction_id),
  resolved_by integer REFERENCES users (id) ON DELETE SET NULL,
  resolved_by_name text,
  resolved_at timestamptz,
  note text CHECK (note IS NULL OR char_length(note) BETWEEN 1 AND 200),
  CHECK ((status = 'matched') = (payment_id IS NOT NULL)),
  CHECK ((status = 'open') = (resolved_at IS NULL))
);
CREATE INDEX fee_match_tasks_open ON fee_match_tasks (claimed_at) WHERE status = 'open';
SELECT audit_table('fee_match_tasks');
