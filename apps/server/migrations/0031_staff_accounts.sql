-- Issue 28, item 7 (ADR 046): an admin account another admin has switched off. It cannot sign in and
-- its sessions end (the token version moves on as well); NULL is an account in use. Teachers' accounts
-- are never switched off this way: deleting the teacher removes the account.
ALTER TABLE users ADD COLUMN disabled_at timestamptz;
