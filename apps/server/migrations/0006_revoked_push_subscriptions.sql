-- Family access (ADR 018): a replaced access code signs the family's devices out of
-- pushes, but each must still be told. Their subscriptions are marked revoked rather than deleted:
-- the worker sends a revoked device only the access-change notice, then forgets it.
ALTER TABLE push_subscriptions ADD COLUMN revoked_at timestamptz;

-- "Anything still queued for this device?", asked after each notice; and the cascade when a
-- subscription is deleted no longer scans the outbox.
CREATE INDEX push_outbox_subscription_idx ON push_outbox (subscription_id);
