-- Reach from the first hour, and honest numbers (issue 28, ADR 044).
--
-- A family no channel reached is written to by hand, from a staff member's own phone (the send list's
-- WhatsApp and SMS links), and ticked "sent by hand": who and when, set once, never cleared. It is a
-- status of its own beside the channels' delivery status, which keeps the spec's five values and only
-- moves forward: a later proof from a channel (delivered, read) still shows. The columns are not in the
-- audit's ignored list, so the tick has its audit row by the messages trigger (ADR 025).
ALTER TABLE messages
  ADD COLUMN sent_by_hand_at timestamptz,
  ADD COLUMN sent_by_hand_by text,
  ADD COLUMN sent_by_hand_by_user_id integer REFERENCES users (id) ON DELETE SET NULL;

-- Where a message stands with its family, in ONE place: the send and call list, the message history,
-- the analytics and the dashboard all read it through this function (ADR 044).
--   read, delivered: a channel proved it (the parent app's inbox showing it counts as delivered);
--   sent_by_hand:    staff sent it from their own phone;
--   not_reached:     nothing reached the family: no channel took it (failed), or none proved it by
--                    `not_reached_before` (the call list's minutes after sending);
--   waiting:         a channel has it and there is still time for the proof.
-- A family is "not reached" by a message only when this says not_reached.
CREATE FUNCTION message_reach(
  delivery_status text, sent_by_hand_at timestamptz, sent_at timestamptz, not_reached_before timestamptz
) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN delivery_status = 'read' THEN 'read'
    WHEN delivery_status = 'delivered' THEN 'delivered'
    WHEN sent_by_hand_at IS NOT NULL THEN 'sent_by_hand'
    WHEN delivery_status = 'failed' OR sent_at < not_reached_before THEN 'not_reached'
    ELSE 'waiting'
  END
$$;
