-- Fee plans, discounts and the monthly charge run (issue 29, ADR 052). The money itself is in the
-- ledger (migration 0032): these tables say which plan charged which student for which period, so
-- that a run, however often it is repeated, raises each charge once and posts only differences.

-- A plan: what is charged, how, and to whom (the students of its classes and the students it names).
CREATE TABLE fee_plans (
  id serial PRIMARY KEY,
  name text NOT NULL CHECK (btrim(name) <> '' AND length(name) <= 80),
  kind text NOT NULL CHECK (kind IN ('monthly', 'per_day', 'package', 'one_time')),
  -- monthly: a month; per_day: an approved attended day; package: the package; one_time: the whole.
  amount_paise bigint NOT NULL CHECK (amount_paise > 0 AND amount_paise <= 1000000000),
  -- Class values as written on students (checked against the centre's list when saved, not by a key,
  -- so a class stays deletable by its own rules once no student is in it).
  class_names text[] NOT NULL DEFAULT '{}',
  student_ids integer[] NOT NULL DEFAULT '{}',
  due_day smallint NOT NULL DEFAULT 10 CHECK (due_day BETWEEN 1 AND 28),
  late_fee_paise bigint NOT NULL DEFAULT 0 CHECK (late_fee_paise >= 0 AND late_fee_paise <= 1000000000),
  -- package: how many attended sessions one package covers.
  sessions integer CHECK (sessions IS NULL OR sessions BETWEEN 1 AND 1000),
  -- one_time in parts: [{"due_on": "yyyy-MM-dd", "amount_paise": n}, …] summing to amount_paise.
  instalments jsonb NOT NULL DEFAULT '[]',
  archived_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((kind = 'package') = (sessions IS NOT NULL)),
  CHECK (kind = 'one_time' OR instalments = '[]'::jsonb)
);
CREATE UNIQUE INDEX fee_plans_name_key ON fee_plans (lower(name)) WHERE archived_at IS NULL;

-- Each charge the run raised (and each correction of one): a plan, a student, a period and a revision.
-- `period` is the month (yyyy-MM) for monthly and per-day plans, `once` for a one-time plan, `part-<n>`
-- for its n-th instalment and `package-<n>` for a student's n-th package. A correction is the next
-- revision of the same period, holding the difference. Rows are never changed or removed.
CREATE TABLE fee_charges (
  id serial PRIMARY KEY,
  plan_id integer NOT NULL REFERENCES fee_plans (id),
  -- No key to students: a deleted or erased student's charges stay, as the ledger's amounts do.
  student_id integer NOT NULL,
  family_id integer NOT NULL,
  period text NOT NULL CHECK (period ~ '^([0-9]{4}-[0-9]{2}|once|part-[0-9]+|package-[0-9]+)$'),
  revision integer NOT NULL CHECK (revision >= 0),
  -- What was counted: days present (per day), days in the plan (a prorated month), sessions used (package).
  units integer,
  -- The plan's amount when the period was first charged: its corrections count at the same rate.
  rate_paise bigint NOT NULL CHECK (rate_paise > 0),
  amount_paise bigint NOT NULL CHECK (amount_paise BETWEEN -100000000000 AND 100000000000),
  discount_paise bigint NOT NULL DEFAULT 0 CHECK (discount_paise BETWEEN -100000000000 AND 100000000000),
  due_on date NOT NULL,
  -- The ledger's transactions (migration 0032) this row posted.
  transaction_id bigint,
  discount_transaction_id bigint,
  run_id integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (plan_id, student_id, period, revision),
  CHECK (amount_paise <> 0 OR discount_paise <> 0)
);
CREATE INDEX fee_charges_student_idx ON fee_charges (student_id);
CREATE INDEX fee_charges_due_idx ON fee_charges (due_on);

-- A late fee, once per overdue charge.
CREATE TABLE fee_late_fees (
  id serial PRIMARY KEY,
  charge_id integer NOT NULL UNIQUE REFERENCES fee_charges (id),
  amount_paise bigint NOT NULL CHECK (amount_paise > 0),
  transaction_id bigint,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Every run, by hand or by the clock: which month, how many charges it created, who ran it. The
-- automatic run claims its day here (one instance runs it, once a day).
CREATE TABLE fee_charge_runs (
  id serial PRIMARY KEY,
  month text NOT NULL CHECK (month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
  automatic boolean NOT NULL,
  run_on date NOT NULL,
  created integer NOT NULL DEFAULT 0,
  ran_by integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX fee_charge_runs_automatic_key ON fee_charge_runs (run_on) WHERE automatic;

-- Children of staff, whose tuition has the staff-child discount (a list of the fees module's own, so
-- the students' records are not widened for one rule).
CREATE TABLE fee_staff_children (
  student_id integer PRIMARY KEY REFERENCES students (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE FUNCTION fee_rows_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'Charges and late fees are never changed or removed: post a correction instead'
    USING ERRCODE = 'raise_exception';
END;
$$;
CREATE TRIGGER fee_charges_append_only BEFORE UPDATE OR DELETE ON fee_charges
  FOR EACH ROW EXECUTE FUNCTION fee_rows_append_only();
CREATE TRIGGER fee_late_fees_append_only BEFORE UPDATE OR DELETE ON fee_late_fees
  FOR EACH ROW EXECUTE FUNCTION fee_rows_append_only();

-- Discounts and the automatic run's time are settings (the settings table is audited).
INSERT INTO settings (key, value) VALUES
  ('fees_sibling_discount_mode', 'none'),
  ('fees_sibling_discount_value', '0'),
  ('fees_staff_child_discount_mode', 'none'),
  ('fees_staff_child_discount_value', '0'),
  ('fees_charge_run_automatic', 'true'),
  ('fees_charge_run_day', '1'),
  ('fees_charge_run_hour', '6')
ON CONFLICT (key) DO NOTHING;

SELECT audit_table('fee_plans', ignored => ARRAY['updated_at']);
SELECT audit_table('fee_charges');
SELECT audit_table('fee_late_fees');
SELECT audit_table('fee_staff_children', key_column => 'student_id');
