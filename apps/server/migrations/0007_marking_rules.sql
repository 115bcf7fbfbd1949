-- Who marks which attendance (ADR 019): the centre's two marking rules, with their defaults.
-- A teacher marks today and this many days before it (admins mark any past day).
INSERT INTO settings (key, value) VALUES ('teacher_mark_days_back', '2') ON CONFLICT (key) DO NOTHING;
-- Off: a teacher marks only the classes assigned to them on their teacher record.
INSERT INTO settings (key, value) VALUES ('teachers_mark_any_class', 'false') ON CONFLICT (key) DO NOTHING;
