-- TuitionDesk schema. Plain SQL that PostgreSQL 15 and PGlite (PostgreSQL 18) both accept.

CREATE FUNCTION format_code(prefix text, n bigint) RETURNS text
  LANGUAGE sql IMMUTABLE
  AS $$ SELECT prefix || CASE WHEN n < 10000 THEN lpad(n::text, 4, '0') ELSE n::text END $$;

CREATE TABLE settings (
  key text PRIMARY KEY,
  value text NOT NULL
);

CREATE TABLE users (
  id serial PRIMARY KEY,
  username text NOT NULL,
  full_name text NOT NULL,
  role text NOT NULL CHECK (role IN ('admin', 'teacher')),
  password_hash text NOT NULL,
  must_change_password boolean NOT NULL DEFAULT false,
  token_version integer NOT NULL DEFAULT 0,
  activities_viewed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_username_key ON users (lower(username));

CREATE SEQUENCE student_number_seq;
CREATE TABLE students (
  id serial PRIMARY KEY,
  unique_id text NOT NULL UNIQUE DEFAULT format_code('STU', nextval('student_number_seq')),
  full_name text NOT NULL CHECK (full_name <> ''),
  class_name text NOT NULL CHECK (class_name IN ('7', '8', '9', '10')),
  parent_name text NOT NULL DEFAULT '',
  parent_phone text NOT NULL CHECK (parent_phone ~ '^\+[1-9][0-9]{7,14}$'),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX students_class_name_idx ON students (class_name);
CREATE INDEX students_parent_phone_idx ON students (parent_phone);
CREATE INDEX students_name_phone_idx ON students (lower(full_name), parent_phone);

CREATE SEQUENCE teacher_number_seq;
CREATE TABLE teachers (
  id serial PRIMARY KEY,
  unique_id text NOT NULL UNIQUE DEFAULT format_code('TCH', nextval('teacher_number_seq')),
  user_id integer UNIQUE REFERENCES users (id) ON DELETE SET NULL,
  first_name text NOT NULL CHECK (first_name <> ''),
  last_name text NOT NULL CHECK (last_name <> ''),
  full_name text NOT NULL,
  email text,
  phone_number text NOT NULL CHECK (phone_number ~ '^\+[1-9][0-9]{7,14}$'),
  subjects text[] NOT NULL DEFAULT '{}',
  classes_assigned text[] NOT NULL DEFAULT '{}',
  qualification text NOT NULL DEFAULT '',
  experience_years integer NOT NULL DEFAULT 0 CHECK (experience_years >= 0),
  address text NOT NULL DEFAULT '',
  emergency_contact text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX teachers_email_key ON teachers (lower(email)) WHERE email IS NOT NULL;

CREATE TABLE attendance (
  id serial PRIMARY KEY,
  student_id integer NOT NULL REFERENCES students (id) ON DELETE CASCADE,
  date date NOT NULL,
  class_name text NOT NULL,
  status text NOT NULL CHECK (status IN ('present', 'absent', 'late', 'leave')),
  remarks text,
  marked_by text NOT NULL,
  marked_by_user_id integer REFERENCES users (id) ON DELETE SET NULL,
  marked_at timestamptz NOT NULL DEFAULT now(),
  approved_by text,
  approved_by_user_id integer REFERENCES users (id) ON DELETE SET NULL,
  approved_at timestamptz,
  UNIQUE (student_id, date)
);
CREATE INDEX attendance_date_idx ON attendance (date);
CREATE INDEX attendance_pending_idx ON attendance (date) WHERE approved_at IS NULL;

CREATE TABLE teacher_attendance (
  id serial PRIMARY KEY,
  teacher_id integer NOT NULL REFERENCES teachers (id) ON DELETE CASCADE,
  date date NOT NULL,
  status text NOT NULL DEFAULT 'not_marked'
    CHECK (status IN ('not_marked', 'present', 'absent', 'half_day', 'on_leave')),
  remarks text,
  check_in_time text,
  check_out_time text,
  marked_by_user_id integer REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (teacher_id, date)
);
CREATE INDEX teacher_attendance_date_idx ON teacher_attendance (date);

CREATE TABLE teacher_attendance_locks (
  date date PRIMARY KEY,
  locked_by text NOT NULL,
  locked_by_user_id integer REFERENCES users (id) ON DELETE SET NULL,
  locked_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE messages (
  id serial PRIMARY KEY,
  message_type text NOT NULL DEFAULT 'IN_APP',
  subject text NOT NULL,
  message text NOT NULL,
  recipient text NOT NULL,
  recipient_name text,
  sent_by text,
  sent_by_user_id integer REFERENCES users (id) ON DELETE SET NULL,
  sent_at timestamptz NOT NULL DEFAULT now(),
  delivery_status text NOT NULL DEFAULT 'sent' CHECK (delivery_status IN ('sent', 'delivered', 'failed')),
  delivered_at timestamptz,
  failure_reason text
);
CREATE INDEX messages_sent_at_idx ON messages (sent_at DESC, id DESC);

CREATE TABLE activities (
  id serial PRIMARY KEY,
  user_id integer REFERENCES users (id) ON DELETE SET NULL,
  actor text,
  action text NOT NULL,
  description text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX activities_created_at_idx ON activities (created_at DESC, id DESC);

-- Failed sign-ins, per username and per client address, shared by every server instance.
CREATE TABLE login_throttle (
  key text PRIMARY KEY,
  failures integer NOT NULL DEFAULT 0,
  window_started_at timestamptz NOT NULL DEFAULT now(),
  blocked_until timestamptz
);
