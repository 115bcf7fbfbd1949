-- The history page counts the records of a range of days by day, class and status, and the
-- month summary counts approved records by status. With those columns in the index, PostgreSQL
-- counts a month (150,000 records at a large centre) from the index alone once autovacuum has marked
-- the pages all-visible. It replaces the index on date only.
CREATE INDEX attendance_date_class_status_idx ON attendance (date, class_name, status) INCLUDE (approved_at);
DROP INDEX attendance_date_idx;
