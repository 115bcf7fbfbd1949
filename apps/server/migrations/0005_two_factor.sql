-- Two-factor sign-in with a TOTP authenticator (ADR 014).

-- One row per account that has started or finished setting up an authenticator. The secret is stored
-- encrypted (AES-256-GCM, key derived from the server's signing secret, bound to the user id);
-- confirmed_at is set by the first correct code, and only then does sign-in ask for one. last_step is
-- the 30-second time step of the last code accepted: a code for that step or an earlier one is refused,
-- so a code cannot be replayed.
CREATE TABLE user_two_factor (
  user_id integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  secret_encrypted text NOT NULL,
  confirmed_at timestamptz,
  last_step bigint,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Ten one-time recovery codes per enrolled account, stored as SHA-256 hex of the normalised code
-- (50 random bits each); used_at is set when one is spent.
CREATE TABLE two_factor_recovery_codes (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at timestamptz,
  UNIQUE (user_id, code_hash)
);

-- The centre setting: off until an enrolled admin turns it on.
INSERT INTO settings (key, value) VALUES ('require_admin_two_factor', 'false') ON CONFLICT (key) DO NOTHING;
