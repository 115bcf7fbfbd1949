-- A version per kind of data (ADR 024): every statement that changes a row of a kind's tables raises
-- its version in the same transaction, so a read that knows the versions it was built under can tell,
-- with one small query, whether its answer still holds (ETag, 304, the answer cache), on every
-- instance sharing the database.
--
-- A version is raised to the current time in microseconds, or by one when the clock is behind: it
-- never comes back to a value it had, even after a backup (which holds older versions) is restored,
-- so one version always names one state of the data.
CREATE TABLE data_versions (
  kind text PRIMARY KEY,
  version bigint NOT NULL
);
INSERT INTO data_versions (kind, version)
SELECT kind, (extract(epoch FROM clock_timestamp()) * 1000000)::bigint
  FROM unnest(ARRAY['accounts', 'activities', 'attendance', 'families', 'messages', 'settings', 'students',
                    'teacher_attendance', 'teachers']) AS kind;

CREATE FUNCTION raise_data_version(changed_kind text) RETURNS void LANGUAGE sql AS $$
  UPDATE data_versions
     SET version = GREATEST(version + 1, (extract(epoch FROM clock_timestamp()) * 1000000)::bigint)
   WHERE kind = changed_kind;
$$;

-- Statement triggers: once per statement, whatever its number of rows, and only when it changed a row
-- (a worker's poll that finds nothing to do leaves the version, and so every kept answer, as it is).
CREATE FUNCTION note_data_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM raise_data_version(TG_ARGV[0]);
  ELSIF EXISTS (SELECT 1 FROM changed_rows) THEN
    PERFORM raise_data_version(TG_ARGV[0]);
  END IF;
  RETURN NULL;
END;
$$;

DO $$
DECLARE
  watched record;
BEGIN
  FOR watched IN
    SELECT * FROM (VALUES
      ('users', 'accounts'), ('user_two_factor', 'accounts'),
      ('activities', 'activities'),
      ('attendance', 'attendance'),
      ('parent_access', 'families'), ('push_subscriptions', 'families'),
      ('messages', 'messages'), ('message_attempts', 'messages'), ('message_sends', 'messages'),
      ('settings', 'settings'),
      ('students', 'students'),
      ('teacher_attendance', 'teacher_attendance'), ('teacher_attendance_locks', 'teacher_attendance'),
      ('teachers', 'teachers')
    ) AS t(table_name, kind)
  LOOP
    EXECUTE format(
      'CREATE TRIGGER %1$I AFTER INSERT ON %2$I REFERENCING NEW TABLE AS changed_rows
         FOR EACH STATEMENT EXECUTE FUNCTION note_data_change(%3$L)',
      watched.table_name || '_inserted_version', watched.table_name, watched.kind);
    EXECUTE format(
      'CREATE TRIGGER %1$I AFTER UPDATE ON %2$I REFERENCING NEW TABLE AS changed_rows
         FOR EACH STATEMENT EXECUTE FUNCTION note_data_change(%3$L)',
      watched.table_name || '_updated_version', watched.table_name, watched.kind);
    EXECUTE format(
      'CREATE TRIGGER %1$I AFTER DELETE ON %2$I REFERENCING OLD TABLE AS changed_rows
         FOR EACH STATEMENT EXECUTE FUNCTION note_data_change(%3$L)',
      watched.table_name || '_deleted_version', watched.table_name, watched.kind);
    EXECUTE format(
      'CREATE TRIGGER %1$I AFTER TRUNCATE ON %2$I FOR EACH STATEMENT EXECUTE FUNCTION note_data_change(%3$L)',
      watched.table_name || '_truncated_version', watched.table_name, watched.kind);
  END LOOP;
END;
$$;
