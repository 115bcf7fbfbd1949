-- Web Push delivery: when a push service first accepted a push of the message for any of
-- the parent's devices. A message some device got is never marked `failed` because another device's
-- pushes gave up; a message no device got is, once its last outbox row gives up.
ALTER TABLE messages ADD COLUMN pushed_at timestamptz;
