-- The centre's own classes (or batches) and subjects (ADR 043), instead of the spec's fixed 7–10 and
-- ten subjects. A new centre starts with exactly those, so a client written from the spec sees no change.
--
-- A class's `value` is what students, teachers' assignments, attendance and messages store ("7",
-- "11-A", "Morning batch"); it never changes once created, so no stored row has to be rewritten. What
-- people see is its `label` (and `section`), which an admin may edit. A class in use is archived, not
-- deleted: students keep it, nothing new is put in it. Subjects alike (teachers store the value).
CREATE TABLE classes (
  id serial PRIMARY KEY,
  value text NOT NULL UNIQUE
    CHECK (value <> '' AND value = btrim(value) AND length(value) <= 40 AND strpos(value, ',') = 0),
  label text NOT NULL CHECK (label <> '' AND length(label) <= 60),
  section text CHECK (section IS NULL OR (section <> '' AND length(section) <= 40)),
  sort_order integer NOT NULL,
  archived_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- "7" and "7 " or "Morning Batch" and "morning batch" are one class: the second is refused (409).
CREATE UNIQUE INDEX classes_value_lower_key ON classes (lower(value));
CREATE UNIQUE INDEX classes_label_section_key ON classes (lower(label), lower(coalesce(section, '')));

INSERT INTO classes (value, label, sort_order)
VALUES ('7', 'Class 7', 1), ('8', 'Class 8', 2), ('9', 'Class 9', 3), ('10', 'Class 10', 4);

CREATE TABLE subjects (
  id serial PRIMARY KEY,
  value text NOT NULL UNIQUE
    CHECK (value <> '' AND value = btrim(value) AND length(value) <= 60 AND strpos(value, ',') = 0),
  label text NOT NULL CHECK (label <> '' AND length(label) <= 60),
  sort_order integer NOT NULL,
  archived_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX subjects_value_lower_key ON subjects (lower(value));
CREATE UNIQUE INDEX subjects_label_key ON subjects (lower(label));

INSERT INTO subjects (value, label, sort_order)
VALUES ('Mathematics', 'Mathematics', 1), ('Science', 'Science', 2), ('English', 'English', 3),
       ('Hindi', 'Hindi', 4), ('Social Studies', 'Social Studies', 5), ('Physics', 'Physics', 6),
       ('Chemistry', 'Chemistry', 7), ('Biology', 'Biology', 8), ('Computer Science', 'Computer Science', 9),
       ('Physical Education', 'Physical Education', 10);

-- A student's class is one of the centre's classes: the fixed CHECK gives way to a reference, which
-- also keeps a class with students from being deleted whatever the service checks.
ALTER TABLE students DROP CONSTRAINT students_class_name_check;
ALTER TABLE students ADD CONSTRAINT students_class_name_fkey FOREIGN KEY (class_name) REFERENCES classes (value);

SELECT audit_table('classes', ignored => ARRAY['updated_at']);
SELECT audit_table('subjects', ignored => ARRAY['updated_at']);

-- The lists are the centre's settings: a change makes answers built from them (the marking scope) new.
DO $$
DECLARE
  watched text;
BEGIN
  FOREACH watched IN ARRAY ARRAY['classes', 'subjects'] LOOP
    EXECUTE format(
      'CREATE TRIGGER %1$I AFTER INSERT ON %2$I REFERENCING NEW TABLE AS changed_rows
         FOR EACH STATEMENT EXECUTE FUNCTION note_data_change(%3$L)',
      watched || '_inserted_version', watched, 'settings');
    EXECUTE format(
      'CREATE TRIGGER %1$I AFTER UPDATE ON %2$I REFERENCING NEW TABLE AS changed_rows
         FOR EACH STATEMENT EXECUTE FUNCTION note_data_change(%3$L)',
      watched || '_updated_version', watched, 'settings');
    EXECUTE format(
      'CREATE TRIGGER %1$I AFTER DELETE ON %2$I REFERENCING OLD TABLE AS changed_rows
         FOR EACH STATEMENT EXECUTE FUNCTION note_data_change(%3$L)',
      watched || '_deleted_version', watched, 'settings');
    EXECUTE format(
      'CREATE TRIGGER %1$I AFTER TRUNCATE ON %2$I FOR EACH STATEMENT EXECUTE FUNCTION note_data_change(%3$L)',
      watched || '_truncated_version', watched, 'settings');
  END LOOP;
END;
$$;
