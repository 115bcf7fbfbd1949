-- Marks queued on a teacher's device (offline) are sent with an id the device made; the server keeps
-- the answer under it, so a submission sent twice (the network dropped the first answer, two tabs
-- sending the same queue) is saved once and answered the same each time. The request's hash tells a
-- replay from an id reused for other marks. Kept 30 days (a device offline longer sends into a
-- closed window anyway).
CREATE TABLE attendance_submissions (
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  submission_id uuid NOT NULL,
  request_hash text NOT NULL,
  answer jsonb, -- written in the transaction that claims the id, so others never see it empty
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, submission_id)
);
CREATE INDEX attendance_submissions_created_idx ON attendance_submissions (created_at);
