-- Parents: access codes, the parent inbox, Web Push delivery and centre settings.

-- One row per distinct parent phone that has been given an access code. The code itself is never
-- stored, only its hash; regenerating it replaces the hash and bumps token_version, which ends every
-- parent token issued before.
CREATE TABLE parent_access (
  phone text PRIMARY KEY CHECK (phone ~ '^\+[1-9][0-9]{7,14}$'),
  code_hash text NOT NULL,
  token_version integer NOT NULL DEFAULT 0,
  issued_by text NOT NULL,
  issued_by_user_id integer REFERENCES users (id) ON DELETE SET NULL,
  issued_at timestamptz NOT NULL DEFAULT now(),
  last_sign_in_at timestamptz
);

-- Which student a message is about (absence alerts), and when the parent opened it.
ALTER TABLE messages ADD COLUMN student_id integer REFERENCES students (id) ON DELETE SET NULL;
ALTER TABLE messages ADD COLUMN read_at timestamptz;
CREATE INDEX messages_recipient_idx ON messages (recipient, sent_at DESC, id DESC);

-- A parent device that allowed notifications (a W3C Push API subscription).
CREATE TABLE push_subscriptions (
  id serial PRIMARY KEY,
  phone text NOT NULL REFERENCES parent_access (phone) ON DELETE CASCADE,
  endpoint text NOT NULL UNIQUE,
  p256dh text NOT NULL,
  auth text NOT NULL,
  user_agent text,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_success_at timestamptz
);
CREATE INDEX push_subscriptions_phone_idx ON push_subscriptions (phone);

-- Durable outbox: one row per (message, device) still to push. A worker claims due rows with
-- FOR UPDATE SKIP LOCKED and moves next_attempt_at forward as a lease, so several server instances
-- on one database never push the same row twice; a row is deleted once the push service took it.
CREATE TABLE push_outbox (
  id bigserial PRIMARY KEY,
  message_id integer NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  subscription_id integer NOT NULL REFERENCES push_subscriptions (id) ON DELETE CASCADE,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (message_id, subscription_id)
);
CREATE INDEX push_outbox_due_idx ON push_outbox (next_attempt_at, id);

-- Centre settings with their defaults (settings already holds server secrets; these are public keys).
INSERT INTO settings (key, value) VALUES ('absence_alerts', 'true') ON CONFLICT (key) DO NOTHING;
