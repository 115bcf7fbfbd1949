-- The sign-in throttle under attack (ADR 021).

-- A key's count is forgotten after a quiet spell with no failure, not at the end of a fixed window
-- that a steady attacker would see reset every quarter of an hour.
ALTER TABLE login_throttle RENAME COLUMN window_started_at TO last_failure_at;
-- The periodic clean-up deletes forgotten keys by this column.
CREATE INDEX login_throttle_last_failure_idx ON login_throttle (last_failure_at);

-- Addresses from which an account (a staff account `user:<id>`, or a parent phone `parent:<phone>`)
-- completed a sign-in. Guessing spread over many other addresses slows the account down, but not
-- for the addresses its owner really uses (no malicious lockout, ASVS 6.3.1). Only a full sign-in
-- writes a row, so an attacker cannot grow this table without the account's secrets.
CREATE TABLE sign_in_addresses (
  account text NOT NULL,
  address text NOT NULL,
  last_success_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account, address)
);
CREATE INDEX sign_in_addresses_last_success_idx ON sign_in_addresses (last_success_at);
