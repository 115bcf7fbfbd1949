-- A family is told in the parent app when the centre approves or declines its leave request: a
-- message of its own kind, in the family's language, like the notice of changed app access.
ALTER TABLE messages DROP CONSTRAINT messages_kind_check;
ALTER TABLE messages ADD CONSTRAINT messages_kind_check
  CHECK (kind IN ('notice', 'absence_alert', 'late_alert', 'access_notice', 'leave_notice', 'whatsapp'));
