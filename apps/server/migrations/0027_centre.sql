-- The centre's own settings (ADR 042). Its name stays the setting `centre_name` (migration 0009) and
-- its time zone is the setting `centre_time_zone`, absent until the first set-up stores one (no
-- default here: an absent zone is what says the centre has not been set up). The logo is a small
-- picture (PNG, JPEG or WebP, at most 256 KB, checked by the server), kept here as base64 text so that
-- backups carry it like any other row; one row or none.
CREATE TABLE centre_logo (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg', 'image/webp')),
  image_base64 text NOT NULL,
  size_bytes integer NOT NULL CHECK (size_bytes > 0 AND size_bytes <= 262144),
  sha256 text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- Under the audit log (ADR 025): the picture's type, size and hash before and after, not its bytes.
SELECT audit_table('centre_logo', ignored => ARRAY['image_base64', 'updated_at']);
