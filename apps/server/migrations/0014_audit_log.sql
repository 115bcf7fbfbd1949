-- Every change accountable (ADR 025): an append-only audit log, written by statement triggers on the
-- audited tables in the same transaction as the change, so no route can forget it and a change that
-- rolls back leaves no row. Who, from which address and through which way come from the
-- transaction-local setting tuitiondesk.audit, which the database layer sets from the request at the
-- start of every transaction (none: the server itself, 'system'). Events that are not row changes
-- (sign-ins, backups, the retention job) are inserted by the server directly.
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  -- No foreign key: deleting an account must not touch (or be refused by) the rows that name it.
  actor_id integer,
  actor_name text,
  address text,
  way text NOT NULL CHECK (way IN ('console', 'import', 'api', 'parent app', 'system')),
  entity text NOT NULL,
  action text NOT NULL,
  record_id text,
  -- A creation has only `after` (the row), a deletion only `before`; an update has the changed columns
  -- in both. Secret columns show as "[redacted]"; churn columns (delivery status, last seen) not at all.
  before jsonb,
  after jsonb
);
CREATE INDEX audit_log_at_idx ON audit_log (at DESC, id DESC);
CREATE INDEX audit_log_record_idx ON audit_log (entity, record_id, at DESC, id DESC);
CREATE INDEX audit_log_actor_idx ON audit_log (actor_id, at DESC, id DESC);

-- Append-only: no statement changes or removes a row, except the retention job's own transaction
-- (it sets tuitiondesk.audit_retention locally, and records the removal itself).
CREATE FUNCTION refuse_audit_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND coalesce(current_setting('tuitiondesk.audit_retention', true), '') = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'The audit log is append-only: its rows are never changed or removed'
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION refuse_audit_change();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_audit_change();

-- The server's secrets that were kept as settings before ADR 017: never shown, whoever writes them.
CREATE FUNCTION audit_is_secret(source_table text, row_value jsonb, column_name text, redacted text[]) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT column_name = ANY (redacted)
      OR (source_table = 'settings' AND column_name = 'value' AND row_value->>'key' IN ('jwt_secret', 'vapid_keys'))
$$;

-- The row as the log shows it: churn columns left out, secret columns replaced by "[redacted]".
CREATE FUNCTION audit_shown(source_table text, row_value jsonb, ignored text[], redacted text[]) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(jsonb_object_agg(e.key, CASE WHEN audit_is_secret(source_table, row_value, e.key, redacted)
                                               THEN '"[redacted]"'::jsonb ELSE e.value END), '{}')
    FROM jsonb_each(row_value) e
   WHERE NOT (e.key = ANY (ignored))
$$;

-- One statement, one INSERT into the log whatever its number of rows (an import of 5,000 students is
-- one set-based insert, not 5,000 trigger calls). Arguments: the key column, the ignored columns, the
-- redacted columns. An update writes a row only for records whose shown columns changed, with those
-- columns alone before and after, so delivery status churn and "save without changes" leave nothing.
-- Bulk paths that record themselves as one row (restore, the demo seed, the bench's seeding,
-- migrations) set tuitiondesk.audit_skip locally.
CREATE FUNCTION audit_statement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  context jsonb;
  key_column text := TG_ARGV[0];
  ignored text[] := TG_ARGV[1]::text[];
  redacted text[] := TG_ARGV[2]::text[];
  previous jsonb;
BEGIN
  IF coalesce(current_setting('tuitiondesk.audit_skip', true), '') = 'on' THEN
    RETURN NULL;
  END IF;
  context := coalesce(nullif(current_setting('tuitiondesk.audit', true), ''), '{}')::jsonb;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO audit_log (actor_id, actor_name, address, way, entity, action, record_id, after)
    SELECT (context->>'actor_id')::integer, context->>'actor_name', context->>'address',
           coalesce(context->>'way', 'system'), TG_TABLE_NAME, 'create', r->>key_column,
           audit_shown(TG_TABLE_NAME, r, ignored, redacted)
      FROM (SELECT to_jsonb(n) AS r FROM new_rows n) added;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO audit_log (actor_id, actor_name, address, way, entity, action, record_id, before)
    SELECT (context->>'actor_id')::integer, context->>'actor_name', context->>'address',
           coalesce(context->>'way', 'system'), TG_TABLE_NAME, 'delete', r->>key_column,
           audit_shown(TG_TABLE_NAME, r, ignored, redacted)
      FROM (SELECT to_jsonb(o) AS r FROM old_rows o) removed;
  ELSE
    -- The rows before, by key, looked up for each row after: a join of the two transition tables
    -- (which have no statistics) was planned as a nested loop, 25 million comparisons for an
    -- approval of 5,000 records.
    SELECT jsonb_object_agg(x.r->>key_column, x.r) INTO previous
      FROM (SELECT to_jsonb(o) AS r FROM old_rows o) x;
    INSERT INTO audit_log (actor_id, actor_name, address, way, entity, action, record_id, before, after)
    SELECT (context->>'actor_id')::integer, context->>'actor_name', context->>'address',
           coalesce(context->>'way', 'system'), TG_TABLE_NAME, 'update', n.r->>key_column, d.before, d.after
      FROM (SELECT y.r, previous -> (y.r->>key_column) AS old FROM (SELECT to_jsonb(z) AS r FROM new_rows z) y) n
     CROSS JOIN LATERAL (
       SELECT jsonb_object_agg(e.key, CASE WHEN audit_is_secret(TG_TABLE_NAME, n.r, e.key, redacted)
                                           THEN '"[redacted]"'::jsonb ELSE n.old->e.key END) AS before,
              jsonb_object_agg(e.key, CASE WHEN audit_is_secret(TG_TABLE_NAME, n.r, e.key, redacted)
                                           THEN '"[redacted]"'::jsonb ELSE e.value END) AS after
         FROM jsonb_each(n.r) e
        WHERE NOT (e.key = ANY (ignored)) AND e.value IS DISTINCT FROM n.old->e.key
     ) d
     WHERE d.after IS NOT NULL;
  END IF;
  RETURN NULL;
END;
$$;

-- Puts a table under the audit: `SELECT audit_table('leave_requests');` in a later migration.
-- ignored: columns that change without anyone deciding it (delivery status, last sign-in), neither
-- compared nor shown; redacted: secrets (hashes, encrypted keys), shown as "[redacted]" and, on an
-- update, listed when they changed. The key is the table's one-column primary key unless given.
CREATE FUNCTION audit_table(
  audited regclass,
  ignored text[] DEFAULT '{}',
  redacted text[] DEFAULT '{}',
  key_column text DEFAULT NULL
) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  table_name text := (SELECT relname FROM pg_class WHERE oid = audited);
  key_name text := key_column;
BEGIN
  IF key_name IS NULL THEN
    SELECT a.attname INTO key_name
      FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
     WHERE i.indrelid = audited AND i.indisprimary AND i.indnatts = 1;
    IF key_name IS NULL THEN
      RAISE EXCEPTION 'audit_table: % has no one-column primary key; name the key column', table_name;
    END IF;
  END IF;
  EXECUTE format(
    'CREATE TRIGGER %I AFTER INSERT ON %s REFERENCING NEW TABLE AS new_rows
       FOR EACH STATEMENT EXECUTE FUNCTION audit_statement(%L, %L, %L)',
    table_name || '_audit_insert', audited, key_name, ignored, redacted);
  EXECUTE format(
    'CREATE TRIGGER %I AFTER UPDATE ON %s REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
       FOR EACH STATEMENT EXECUTE FUNCTION audit_statement(%L, %L, %L)',
    table_name || '_audit_update', audited, key_name, ignored, redacted);
  EXECUTE format(
    'CREATE TRIGGER %I AFTER DELETE ON %s REFERENCING OLD TABLE AS old_rows
       FOR EACH STATEMENT EXECUTE FUNCTION audit_statement(%L, %L, %L)',
    table_name || '_audit_delete', audited, key_name, ignored, redacted);
END;
$$;

SELECT audit_table('students', ignored => ARRAY['updated_at']);
SELECT audit_table('teachers', ignored => ARRAY['updated_at']);
SELECT audit_table('users', ignored => ARRAY['updated_at', 'activities_viewed_at'], redacted => ARRAY['password_hash']);
SELECT audit_table('user_two_factor', ignored => ARRAY['last_step'], redacted => ARRAY['secret_encrypted']);
SELECT audit_table('attendance');
SELECT audit_table('teacher_attendance', ignored => ARRAY['updated_at']);
SELECT audit_table('teacher_attendance_locks', key_column => 'date');
-- One row per message; its delivery (attempts, status, when pushed or read) is not a change anyone made.
SELECT audit_table('messages',
  ignored => ARRAY['delivery_status', 'delivered_at', 'pushed_at', 'read_at', 'failure_reason']);
SELECT audit_table('settings');
SELECT audit_table('parent_access', ignored => ARRAY['last_sign_in_at'], redacted => ARRAY['code_hash']);
SELECT audit_table('message_templates', ignored => ARRAY['updated_at']);

INSERT INTO settings (key, value) VALUES ('audit_retention_months', '36') ON CONFLICT (key) DO NOTHING;
