-- Every parent reached (ADR 023): WhatsApp consent and language per family, a message's attempts
-- on each channel, the centre's templates, replies, and the call list.

-- ---- The family's WhatsApp consent and language ----
-- Kept on each student record and written to every record with the same parent phone at once (the
-- family is the phone), so the records of one family never disagree.
ALTER TABLE students ADD COLUMN parent_whatsapp_opt_in boolean NOT NULL DEFAULT false;
ALTER TABLE students ADD COLUMN parent_language text NOT NULL DEFAULT 'en'
  CHECK (parent_language IN ('en', 'hi', 'mr', 'ta', 'bn', 'ur'));
ALTER TABLE students ADD COLUMN parent_whatsapp_opt_in_changed_at timestamptz;
ALTER TABLE students ADD COLUMN parent_whatsapp_opt_in_changed_by text;

-- Every change of a family's consent: when, by whom, and how (staff, an import, a STOP reply, the app).
CREATE TABLE whatsapp_consent_log (
  id bigserial PRIMARY KEY,
  phone text NOT NULL,
  opted_in boolean NOT NULL,
  source text NOT NULL CHECK (source IN ('staff', 'import', 'whatsapp_reply', 'parent_app')),
  changed_by text NOT NULL,
  changed_by_user_id integer REFERENCES users (id) ON DELETE SET NULL,
  changed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX whatsapp_consent_log_phone_idx ON whatsapp_consent_log (phone, changed_at DESC, id DESC);

-- ---- Messages: what kind, which send, and the channel that reached the family ----
-- message_type is now only the channel (IN_APP, WHATSAPP); what the message is moves to kind.
ALTER TABLE messages ADD COLUMN kind text NOT NULL DEFAULT 'notice'
  CHECK (kind IN ('notice', 'absence_alert', 'late_alert', 'access_notice', 'whatsapp'));
UPDATE messages SET kind = CASE WHEN subject = 'Late arrival' THEN 'late_alert' ELSE 'absence_alert' END,
                    message_type = 'IN_APP'
 WHERE message_type = 'ABSENCE_ALERT';
UPDATE messages SET kind = 'access_notice', message_type = 'IN_APP' WHERE message_type = 'ACCESS_NOTICE';
UPDATE messages SET kind = 'whatsapp' WHERE message_type = 'WHATSAPP';
UPDATE messages SET message_type = 'IN_APP' WHERE message_type NOT IN ('IN_APP', 'WHATSAPP');
ALTER TABLE messages ADD CONSTRAINT messages_message_type_check CHECK (message_type IN ('IN_APP', 'WHATSAPP'));

ALTER TABLE messages DROP CONSTRAINT messages_delivery_status_check;
UPDATE messages SET delivery_status = 'read' WHERE read_at IS NOT NULL;
ALTER TABLE messages ADD CONSTRAINT messages_delivery_status_check
  CHECK (delivery_status IN ('queued', 'sent', 'delivered', 'read', 'failed'));

-- The attendance record an alert is about (a reply is written onto it).
ALTER TABLE messages ADD COLUMN attendance_id integer REFERENCES attendance (id) ON DELETE SET NULL;
-- The language the family got it in, and the template it started from.
ALTER TABLE messages ADD COLUMN language text NOT NULL DEFAULT 'en';
-- The call list: the family asked to be called ("Please call me"), and staff ticked that they called.
ALTER TABLE messages ADD COLUMN call_requested_at timestamptz;
ALTER TABLE messages ADD COLUMN called_at timestamptz;
ALTER TABLE messages ADD COLUMN called_by text;
-- The parent's one-tap reply to an alert: sick, family, late, call.
ALTER TABLE messages ADD COLUMN reply text CHECK (reply IN ('sick', 'family', 'late', 'call'));
ALTER TABLE messages ADD COLUMN replied_at timestamptz;

-- One send to many families (a notice, one approval's alerts): what the analytics count per message.
CREATE TABLE message_sends (
  id serial PRIMARY KEY,
  kind text NOT NULL,
  subject text NOT NULL,
  recipients text NOT NULL,
  template_id integer,
  sent_by text,
  sent_by_user_id integer REFERENCES users (id) ON DELETE SET NULL,
  sent_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX message_sends_sent_at_idx ON message_sends (sent_at DESC, id DESC);
ALTER TABLE messages ADD COLUMN send_id integer REFERENCES message_sends (id) ON DELETE SET NULL;
CREATE INDEX messages_send_idx ON messages (send_id);
-- The call list: sent but not reached, or asked to be called, and not yet called.
CREATE INDEX messages_call_list_idx ON messages (sent_at) WHERE called_at IS NULL AND delivery_status IN ('queued', 'sent', 'failed');

-- ---- Attempts: each channel tried for a message, with its own status ----
-- One row per (message, channel). A WhatsApp attempt is also its own outbox row: queued until due
-- (next_attempt_at: at once, after the push had its time, after a back-off, or after the daily limit),
-- claimed with a lease, sent, then moved by the Cloud API's status callbacks, found by their wamid.
CREATE TABLE message_attempts (
  id bigserial PRIMARY KEY,
  message_id integer NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  channel text NOT NULL CHECK (channel IN ('push', 'whatsapp')),
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'delivered', 'read', 'failed')),
  failure_reason text,
  error_code integer,
  provider_message_id text UNIQUE,
  whatsapp_template text,
  whatsapp_language text,
  whatsapp_parameters jsonb,
  whatsapp_buttons boolean NOT NULL DEFAULT false,
  whatsapp_text text,
  tries integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  waiting_reason text,
  -- When this attempt was counted against the daily limit on new conversations (a template to a family
  -- not sent one in the 24 hours before).
  conversation_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  delivered_at timestamptz,
  read_at timestamptz,
  failed_at timestamptz,
  UNIQUE (message_id, channel)
);
CREATE INDEX message_attempts_due_idx ON message_attempts (next_attempt_at, id)
  WHERE channel = 'whatsapp' AND status = 'queued';
CREATE INDEX message_attempts_conversation_idx ON message_attempts (conversation_at)
  WHERE conversation_at IS NOT NULL;

-- What a message got so far, as attempts: pushed messages had a push attempt.
INSERT INTO message_attempts (message_id, channel, status, sent_at, delivered_at, read_at, failure_reason, failed_at)
SELECT id, 'push',
       CASE WHEN read_at IS NOT NULL THEN 'read'
            WHEN delivery_status = 'delivered' THEN 'delivered'
            WHEN delivery_status = 'failed' THEN 'failed'
            ELSE 'sent' END,
       pushed_at, delivered_at, read_at, failure_reason,
       CASE WHEN delivery_status = 'failed' THEN sent_at END
  FROM messages WHERE pushed_at IS NOT NULL OR (delivery_status = 'failed' AND kind <> 'whatsapp');
-- Pushes still queued get their attempt, so the worker's outcome lands on it.
INSERT INTO message_attempts (message_id, channel)
SELECT DISTINCT message_id, 'push' FROM push_outbox
ON CONFLICT (message_id, channel) DO NOTHING;
INSERT INTO message_attempts (message_id, channel, status, sent_at, failure_reason, failed_at)
SELECT id, 'whatsapp', delivery_status, CASE WHEN delivery_status <> 'failed' THEN sent_at END, failure_reason,
       CASE WHEN delivery_status = 'failed' THEN sent_at END
  FROM messages WHERE kind = 'whatsapp';

-- ---- WhatsApp: what parents write to the centre ----
CREATE TABLE whatsapp_inbound (
  id bigserial PRIMARY KEY,
  phone text NOT NULL,
  provider_message_id text NOT NULL UNIQUE,
  kind text NOT NULL,
  body text NOT NULL DEFAULT '',
  reply text,
  context_provider_message_id text,
  received_at timestamptz NOT NULL,
  stored_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX whatsapp_inbound_phone_idx ON whatsapp_inbound (phone, received_at DESC, id DESC);

-- A status can arrive before the sender has stored the wamid the Cloud API answered with (the callback
-- overtakes the answer). It waits here and is applied when the wamid is stored; old ones are dropped.
CREATE TABLE whatsapp_early_statuses (
  id bigserial PRIMARY KEY,
  provider_message_id text NOT NULL,
  status text NOT NULL CHECK (status IN ('sent', 'delivered', 'read', 'failed')),
  status_at timestamptz NOT NULL,
  error_code integer,
  failure_reason text,
  received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX whatsapp_early_statuses_wamid_idx ON whatsapp_early_statuses (provider_message_id);

-- ---- The centre's message templates: one text per language, each mapped to its approved WhatsApp template ----
CREATE TABLE message_templates (
  id serial PRIMARY KEY,
  name text NOT NULL CHECK (name <> ''),
  purpose text NOT NULL CHECK (purpose IN ('notice', 'absence_alert', 'late_alert')),
  subject text NOT NULL CHECK (subject <> ''),
  updated_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX message_templates_name_key ON message_templates (lower(name));
-- One absence alert and one late alert; notices as many as the centre wants.
CREATE UNIQUE INDEX message_templates_alert_key ON message_templates (purpose) WHERE purpose <> 'notice';

CREATE TABLE message_template_texts (
  template_id integer NOT NULL REFERENCES message_templates (id) ON DELETE CASCADE,
  language text NOT NULL CHECK (language IN ('en', 'hi', 'mr', 'ta', 'bn', 'ur')),
  body text NOT NULL CHECK (body <> ''),
  whatsapp_template text,
  PRIMARY KEY (template_id, language)
);

INSERT INTO message_templates (name, purpose, subject) VALUES
  ('Absence alert', 'absence_alert', 'Absence alert'),
  ('Late alert', 'late_alert', 'Late arrival');
INSERT INTO message_template_texts (template_id, language, body, whatsapp_template)
SELECT id, 'en', '{student_name} was marked {status} on {date}.',
       CASE purpose WHEN 'absence_alert' THEN 'tuitiondesk_absence_alert' ELSE 'tuitiondesk_late_alert' END
  FROM message_templates;

-- ---- Attendance: the parent's reason, from a one-tap reply ----
ALTER TABLE attendance ADD COLUMN parent_reason text;
ALTER TABLE attendance ADD COLUMN parent_reason_at timestamptz;

-- ---- Centre settings for messages, with their defaults ----
INSERT INTO settings (key, value) VALUES ('centre_name', 'TuitionDesk') ON CONFLICT (key) DO NOTHING;
INSERT INTO settings (key, value) VALUES ('whatsapp_fallback_minutes', '10') ON CONFLICT (key) DO NOTHING;
INSERT INTO settings (key, value) VALUES ('not_reached_minutes', '30') ON CONFLICT (key) DO NOTHING;
INSERT INTO settings (key, value) VALUES ('whatsapp_notice_template', 'tuitiondesk_notice') ON CONFLICT (key) DO NOTHING;
-- Locked (FOR UPDATE) by whoever counts a new conversation against WhatsApp's daily limit, so several
-- instances count together.
INSERT INTO settings (key, value) VALUES ('whatsapp_daily_limit_lock', '') ON CONFLICT (key) DO NOTHING;
