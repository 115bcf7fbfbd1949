-- Students who leave (ADR 027): a student is marked as having left on a date instead of being deleted,
-- and may be restored. They leave the lists, the rosters after that date and the parents' messages;
-- their attendance and messages stay. After the centre's scrub_left_after_months, a daily job removes
-- their personal data (name, parent name and phone) and keeps the rows that the counts are made of.
ALTER TABLE students ADD COLUMN left_on date;
ALTER TABLE students ADD COLUMN scrubbed_at timestamptz;

-- A scrubbed student keeps no phone: '' is allowed then, and only then.
ALTER TABLE students DROP CONSTRAINT students_parent_phone_check;
ALTER TABLE students ADD CONSTRAINT students_parent_phone_check
  CHECK (parent_phone ~ '^\+[1-9][0-9]{7,14}$' OR (scrubbed_at IS NOT NULL AND parent_phone = ''));
-- Only a student who left is ever scrubbed, and a scrubbed one cannot be restored.
ALTER TABLE students ADD CONSTRAINT students_scrubbed_left CHECK (scrubbed_at IS NULL OR left_on IS NOT NULL);

-- The scrub looks for students who left long enough ago and are not yet scrubbed.
CREATE INDEX students_left_on_idx ON students (left_on) WHERE left_on IS NOT NULL AND scrubbed_at IS NULL;

INSERT INTO settings (key, value) VALUES ('scrub_left_after_months', '24') ON CONFLICT (key) DO NOTHING;
