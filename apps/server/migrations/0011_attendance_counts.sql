-- Attendance counts kept, not recounted (ADR 024): how many records each day, class, status and
-- approval state has, changed by statement triggers in the same transaction as every write to
-- attendance (marking, approving, deleting, importing, clearing, a student's deletion cascading), so
-- the dashboard, the summary, the pending count and the history's counts read a few hundred rows
-- whatever the number of records. Rows whose count falls to zero are removed, so the table is
-- exactly what counting the records would give.
CREATE TABLE attendance_counts (
  date date NOT NULL,
  class_name text NOT NULL,
  status text NOT NULL,
  approved boolean NOT NULL,
  records integer NOT NULL,
  PRIMARY KEY (date, class_name, status, approved)
);
CREATE INDEX attendance_counts_pending_idx ON attendance_counts (date) WHERE NOT approved;
CREATE INDEX attendance_counts_empty_idx ON attendance_counts (date) WHERE records = 0;

INSERT INTO attendance_counts (date, class_name, status, approved, records)
SELECT date, class_name, status, approved_at IS NOT NULL, count(*)::int
  FROM attendance
 GROUP BY 1, 2, 3, 4;

-- Adds what a statement inserted and takes away what it deleted (an update does both), in key order
-- so that two statements never wait on each other's rows in opposite orders.
CREATE FUNCTION count_attendance_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM attendance_counts;
    RETURN NULL;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO attendance_counts AS c (date, class_name, status, approved, records)
    SELECT date, class_name, status, approved_at IS NOT NULL, count(*)::int
      FROM added GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (date, class_name, status, approved) DO UPDATE SET records = c.records + excluded.records;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE attendance_counts c SET records = c.records - d.records
      FROM (SELECT date, class_name, status, approved_at IS NOT NULL AS approved, count(*)::int AS records
              FROM removed GROUP BY 1, 2, 3, 4) d
     WHERE (c.date, c.class_name, c.status, c.approved) = (d.date, d.class_name, d.status, d.approved);
  ELSE
    INSERT INTO attendance_counts AS c (date, class_name, status, approved, records)
    SELECT date, class_name, status, approved, sum(n)::int
      FROM (SELECT date, class_name, status, approved_at IS NOT NULL AS approved, 1 AS n FROM added
            UNION ALL
            SELECT date, class_name, status, approved_at IS NOT NULL, -1 FROM removed) moved
     GROUP BY 1, 2, 3, 4
    HAVING sum(n) <> 0
     ORDER BY 1, 2, 3, 4
    ON CONFLICT (date, class_name, status, approved) DO UPDATE SET records = c.records + excluded.records;
  END IF;
  DELETE FROM attendance_counts WHERE records = 0;
  RETURN NULL;
END;
$$;

CREATE TRIGGER attendance_counted_insert AFTER INSERT ON attendance REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION count_attendance_change();
CREATE TRIGGER attendance_counted_update AFTER UPDATE ON attendance REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION count_attendance_change();
CREATE TRIGGER attendance_counted_delete AFTER DELETE ON attendance REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION count_attendance_change();
CREATE TRIGGER attendance_counted_truncate AFTER TRUNCATE ON attendance
  FOR EACH STATEMENT EXECUTE FUNCTION count_attendance_change();
