-- Data versions raised once per transaction, at its commit, all kinds in one ordered step (ADR 024).
--
-- Raising a kind's version in the statement that changed its rows held that version's row locked
-- until the transaction ended: every writer of a kind waited for the one before it to commit, and
-- two transactions that changed two kinds in opposite orders deadlocked (a push recorded as sent
-- changes messages, then families; a replaced access code changes families, then messages).
--
-- Now a changing statement only notes its kind in a transaction-local setting (and, the first time,
-- queues one deferred trigger event by a row in data_version_pending); at commit that trigger raises
-- every noted kind in one statement, locking the version rows in kind order. Locks are taken at the
-- very end, held only through the commit, and always in the same order: no deadlock, little waiting.
-- A savepoint rolled back takes its notes with it (the setting and the queued row are both undone).

CREATE TABLE data_version_pending (
  -- Only ever holds the committing transaction's own row, which the trigger deletes before commit.
  noted boolean NOT NULL DEFAULT true
);

CREATE OR REPLACE FUNCTION note_data_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  noted text := coalesce(current_setting('tuitiondesk.changed_kinds', true), '');
BEGIN
  IF TG_OP <> 'TRUNCATE' THEN
    IF NOT EXISTS (SELECT 1 FROM changed_rows) THEN
      RETURN NULL;
    END IF;
  END IF;
  IF noted = '' THEN
    INSERT INTO data_version_pending DEFAULT VALUES;
    PERFORM set_config('tuitiondesk.changed_kinds', TG_ARGV[0], true);
  ELSIF NOT (TG_ARGV[0] = ANY (string_to_array(noted, ','))) THEN
    PERFORM set_config('tuitiondesk.changed_kinds', noted || ',' || TG_ARGV[0], true);
  END IF;
  RETURN NULL;
END;
$$;

CREATE FUNCTION raise_noted_data_versions() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  kinds text[] := string_to_array(coalesce(current_setting('tuitiondesk.changed_kinds', true), ''), ',');
BEGIN
  PERFORM 1 FROM data_versions WHERE kind = ANY (kinds) ORDER BY kind FOR UPDATE;
  UPDATE data_versions
     SET version = GREATEST(version + 1, (extract(epoch FROM clock_timestamp()) * 1000000)::bigint)
   WHERE kind = ANY (kinds);
  -- Rows of other transactions are not visible until they commit, and each deletes its own first.
  DELETE FROM data_version_pending;
  PERFORM set_config('tuitiondesk.changed_kinds', '', true);
  RETURN NULL;
END;
$$;

CREATE CONSTRAINT TRIGGER data_version_pending_raise
  AFTER INSERT ON data_version_pending
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION raise_noted_data_versions();
