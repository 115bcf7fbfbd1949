-- Leave told in advance (ADR 026): a parent says, in the parent app, that a child will be away from
-- one day to another and why; an admin approves or declines it; the parent may withdraw it while it
-- waits. Rows are never deleted by those steps (the parent sees what became of each request), only
-- with the student.
CREATE TABLE leave_requests (
  id serial PRIMARY KEY,
  student_id integer NOT NULL REFERENCES students (id) ON DELETE CASCADE,
  -- The family that asked: the parent phone on the student's record at the time.
  parent_phone text NOT NULL,
  from_date date NOT NULL,
  to_date date NOT NULL,
  reason text NOT NULL CHECK (btrim(reason) <> '' AND length(reason) <= 200),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'declined', 'withdrawn')),
  requested_at timestamptz NOT NULL DEFAULT now(),
  decided_at timestamptz,
  decided_by text,
  decided_by_user_id integer REFERENCES users (id) ON DELETE SET NULL,
  CHECK (to_date >= from_date),
  -- Decided requests say who and when; waiting ones carry neither.
  CHECK ((status = 'pending') = (decided_at IS NULL))
);

-- The roster, the alerts and the overlap check look for a child's live requests covering a day.
CREATE INDEX leave_requests_live_idx ON leave_requests (student_id, from_date, to_date)
  WHERE status IN ('pending', 'approved');
-- The staff list and the waiting count, newest first within a state.
CREATE INDEX leave_requests_status_idx ON leave_requests (status, requested_at DESC, id DESC);
-- A family's own requests (its children's, whoever asked).
CREATE INDEX leave_requests_student_idx ON leave_requests (student_id, requested_at DESC);

-- Every request, withdrawal and decision in the audit log (migration 0014).
SELECT audit_table('leave_requests');
