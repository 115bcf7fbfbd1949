-- A template's texts are under the audit log too (ADR 025): a change of a text or of its approved
-- WhatsApp template name, in any language, has its before and after there, so a notice cannot become
-- another text and back with no record. The texts are saved in place (one row per template and
-- language, updated only where it changed), so an edit of the Hindi text is one row, not a deletion
-- and a creation of every language.
--
-- The log pairs the rows before and after an update by a one-column key: the template and the
-- language, as `12:hi`, which is also the record id the Audit screen shows and filters by. It is
-- computed by the database and never shown as a field.
ALTER TABLE message_template_texts
  ADD COLUMN audit_key text GENERATED ALWAYS AS (template_id::text || ':' || language) STORED;
SELECT audit_table('message_template_texts', ignored => ARRAY['audit_key'], key_column => 'audit_key');
