-- Erasure (ADR 027): when the personal data of a student who left is scrubbed, it goes from the audit
-- log too, or the log would keep for years the names and phones the scrub removed. The log stays
-- append-only in every other way: in a transaction that set tuitiondesk.audit_erasure locally (only
-- the scrub does), a row may have values replaced by "[removed]", and nothing else: not its time, its
-- actor's id, address, way, entity or action, nor any value rewritten into another one.

-- True when `new_value` is `old_value` with some values replaced by "[removed]" (same keys).
CREATE FUNCTION audit_only_removed(old_value jsonb, new_value jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT old_value IS NOT DISTINCT FROM new_value
      OR (jsonb_typeof(old_value) = 'object' AND jsonb_typeof(new_value) = 'object'
          AND (SELECT coalesce(array_agg(k ORDER BY k), '{}') FROM jsonb_object_keys(old_value) k)
            = (SELECT coalesce(array_agg(k ORDER BY k), '{}') FROM jsonb_object_keys(new_value) k)
          AND NOT EXISTS (SELECT 1 FROM jsonb_each(new_value) e
                           WHERE e.value IS DISTINCT FROM old_value -> e.key
                             AND e.value <> '"[removed]"'::jsonb))
$$;

CREATE OR REPLACE FUNCTION refuse_audit_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND coalesce(current_setting('tuitiondesk.audit_retention', true), '') = 'on' THEN
    RETURN OLD;
  END IF;
  IF TG_OP = 'UPDATE' AND coalesce(current_setting('tuitiondesk.audit_erasure', true), '') = 'on'
     AND (NEW.id, NEW.at, NEW.actor_id, NEW.address, NEW.way, NEW.entity, NEW.action)
         IS NOT DISTINCT FROM (OLD.id, OLD.at, OLD.actor_id, OLD.address, OLD.way, OLD.entity, OLD.action)
     AND (NEW.record_id IS NOT DISTINCT FROM OLD.record_id OR NEW.record_id = '[removed]')
     AND (NEW.actor_name IS NOT DISTINCT FROM OLD.actor_name OR NEW.actor_name = 'Parent [removed]')
     AND audit_only_removed(OLD.before, NEW.before)
     AND audit_only_removed(OLD.after, NEW.after) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'The audit log is append-only: its rows are never changed or removed'
    USING ERRCODE = 'insufficient_privilege';
END;
$$;

-- `value` with each of `fields` replaced by "[removed]", except a value the record holds now (`kept`,
-- the scrubbed row: "Former student STU0042", an empty phone) and values that hold nothing.
CREATE FUNCTION audit_removed(value jsonb, fields text[], kept jsonb DEFAULT '{}') RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN jsonb_typeof(value) IS DISTINCT FROM 'object' THEN value ELSE
    (SELECT coalesce(jsonb_object_agg(e.key,
              CASE WHEN e.key = ANY (fields) AND e.value IS DISTINCT FROM kept -> e.key
                        AND e.value NOT IN ('""'::jsonb, 'null'::jsonb)
                   THEN '"[removed]"'::jsonb ELSE e.value END), '{}')
       FROM jsonb_each(value) e)
  END
$$;

-- The rows a parent's own actions and sign-ins wrote name the family by phone ("Parent +91…", with
-- no account id): found without reading the whole log.
CREATE INDEX audit_log_accountless_actor_idx ON audit_log (actor_name) WHERE actor_id IS NULL;
