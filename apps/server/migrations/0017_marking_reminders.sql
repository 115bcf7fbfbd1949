-- Marking reminders (ADR 028): at the centre's reminder time each teacher is reminded, once a day, of
-- each assigned class with no attendance marked; the reminder goes to the teacher's devices by Web Push
-- and stays on their dashboard until the class is marked.
INSERT INTO settings (key, value) VALUES ('marking_reminders', 'true') ON CONFLICT (key) DO NOTHING;
INSERT INTO settings (key, value) VALUES ('marking_reminder_time', '10:00') ON CONFLICT (key) DO NOTHING;

-- One row per teacher, class and day, claimed by the instance that inserts it first: the unique key is
-- what makes two server instances racing at the reminder time remind each teacher of each class once.
CREATE TABLE marking_reminders (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  class_name text NOT NULL,
  date date NOT NULL,
  reminded_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, class_name, date)
);
CREATE INDEX marking_reminders_date_idx ON marking_reminders (date);

-- A staff member's device that allowed notifications. Its own table, beside the parents': a parent's
-- device belongs to a phone and is revoked with a family's code; a staff device belongs to an account.
CREATE TABLE staff_push_subscriptions (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  endpoint text NOT NULL UNIQUE,
  p256dh text NOT NULL,
  auth text NOT NULL,
  user_agent text,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_success_at timestamptz
);
CREATE INDEX staff_push_subscriptions_user_idx ON staff_push_subscriptions (user_id);

-- Staff pushes still to send, drained by the same worker, lease and retries as the parents' outbox.
CREATE TABLE staff_push_outbox (
  id serial PRIMARY KEY,
  reminder_id integer NOT NULL REFERENCES marking_reminders (id) ON DELETE CASCADE,
  subscription_id integer NOT NULL REFERENCES staff_push_subscriptions (id) ON DELETE CASCADE,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error text,
  UNIQUE (reminder_id, subscription_id)
);
CREATE INDEX staff_push_outbox_due_idx ON staff_push_outbox (next_attempt_at, id);
CREATE INDEX staff_push_outbox_subscription_idx ON staff_push_outbox (subscription_id);

-- Whoever ends an account's sessions (a password changed, every session signed out) ends its devices'
-- notifications too: a lost phone stops hearing about the centre. The console subscribes the device
-- it is signed in on again by itself.
CREATE FUNCTION forget_staff_devices() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM staff_push_subscriptions WHERE user_id = NEW.id;
  RETURN NULL;
END;
$$;
CREATE TRIGGER users_sessions_ended_forget_devices
  AFTER UPDATE OF token_version ON users
  FOR EACH ROW WHEN (NEW.token_version IS DISTINCT FROM OLD.token_version)
  EXECUTE FUNCTION forget_staff_devices();

-- A reminder shows on the teacher's dashboard: its answer (kept under the attendance version) is built
-- anew when one is made.
CREATE TRIGGER marking_reminders_inserted_version AFTER INSERT ON marking_reminders
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('attendance');
CREATE TRIGGER marking_reminders_updated_version AFTER UPDATE ON marking_reminders
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('attendance');
CREATE TRIGGER marking_reminders_deleted_version AFTER DELETE ON marking_reminders
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('attendance');
CREATE TRIGGER marking_reminders_truncated_version AFTER TRUNCATE ON marking_reminders
  FOR EACH STATEMENT EXECUTE FUNCTION note_data_change('attendance');
