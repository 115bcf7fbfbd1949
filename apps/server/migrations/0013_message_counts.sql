-- Messages counted as they are written, not recounted (ADR 024): the dashboard's "messages sent this
-- month" reads the counts of the month's quarter-hours, whatever the number of messages. Every
-- statement that inserts or deletes messages adds one row per quarter-hour it touched, holding the
-- change (as does a message moved in time, which nothing does today): rows are only ever added, so two writers never wait on each other's
-- rows. Quarter-hours, because every time zone's midnight falls on one, so a month in the centre's
-- zone is a whole number of them.
CREATE TABLE message_counts (
  quarter timestamptz NOT NULL,
  messages integer NOT NULL
);
CREATE INDEX message_counts_quarter_idx ON message_counts (quarter);

CREATE FUNCTION message_quarter(sent_at timestamptz) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
  SELECT date_bin('15 minutes', sent_at, timestamptz '2000-01-01 00:00:00+00');
$$;

INSERT INTO message_counts (quarter, messages)
SELECT message_quarter(sent_at), count(*)::int FROM messages GROUP BY 1;

CREATE FUNCTION count_message_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM message_counts;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO message_counts (quarter, messages)
    SELECT message_quarter(sent_at), count(*)::int FROM added GROUP BY 1;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO message_counts (quarter, messages)
    SELECT message_quarter(sent_at), -count(*)::int FROM removed GROUP BY 1;
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER messages_counted_insert AFTER INSERT ON messages REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION count_message_change();
-- A message moved in time, row by row: a trigger on one column cannot see the statement's rows at
-- once, and this one costs nothing to the updates of everything else (delivery statuses, mostly).
CREATE FUNCTION count_message_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO message_counts (quarter, messages)
  VALUES (message_quarter(OLD.sent_at), -1), (message_quarter(NEW.sent_at), 1);
  RETURN NULL;
END;
$$;
CREATE TRIGGER messages_counted_moved AFTER UPDATE OF sent_at ON messages
  FOR EACH ROW WHEN (OLD.sent_at IS DISTINCT FROM NEW.sent_at) EXECUTE FUNCTION count_message_moved();
CREATE TRIGGER messages_counted_delete AFTER DELETE ON messages REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION count_message_change();
CREATE TRIGGER messages_counted_truncate AFTER TRUNCATE ON messages
  FOR EACH STATEMENT EXECUTE FUNCTION count_message_change();
