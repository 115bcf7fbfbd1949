import type { MessageTemplate, ParentLanguage, TemplatePurpose, TemplateText } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';

/** A template as a send uses it: its subject and its text (and approved WhatsApp template) per language. */
export interface TemplateForSending {
  id: number;
  purpose: TemplatePurpose;
  subject: string;
  texts: Partial<Record<ParentLanguage, { body: string; whatsapp_template: string | null }>>;
}

export async function findTemplateForSending(
  db: Queryable,
  by: { id: number } | { purpose: 'absence_alert' | 'late_alert' },
): Promise<TemplateForSending | undefined> {
  const rows = await db.query<{
    id: number;
    purpose: TemplatePurpose;
    subject: string;
    language: ParentLanguage | null;
    body: string | null;
    whatsapp_template: string | null;
  }>(
    `SELECT t.id, t.purpose, t.subject, x.language, x.body, x.whatsapp_template
       FROM message_templates t LEFT JOIN message_template_texts x ON x.template_id = t.id
      WHERE ${'id' in by ? 't.id = $1' : 't.purpose = $1'}
      ORDER BY x.language`,
    ['id' in by ? by.id : by.purpose],
  );
  const first = rows[0];
  if (!first) return undefined;
  const texts: TemplateForSending['texts'] = {};
  for (const row of rows) {
    if (row.language && row.body !== null) {
      texts[row.language] = { body: row.body, whatsapp_template: row.whatsapp_template };
    }
  }
  return { id: first.id, purpose: first.purpose, subject: first.subject, texts };
}

/** Every template with its texts (or the one with `id`), alerts first, then notices by name; English first in each. */
export async function listTemplates(db: Queryable, id?: number): Promise<MessageTemplate[]> {
  const rows = await db.query<{
    id: number;
    name: string;
    purpose: TemplatePurpose;
    subject: string;
    updated_by: string | null;
    updated_at: string;
    texts: TemplateText[] | null;
  }>(
    `SELECT t.id, t.name, t.purpose, t.subject, t.updated_by, t.updated_at,
            (SELECT json_agg(json_build_object('language', x.language, 'body', x.body, 'whatsapp_template', x.whatsapp_template)
                             ORDER BY x.language <> 'en', x.language)
               FROM message_template_texts x WHERE x.template_id = t.id) AS texts
       FROM message_templates t
      WHERE $1::int IS NULL OR t.id = $1
      ORDER BY t.purpose = 'notice', t.purpose, lower(t.name), t.id`,
    [id ?? null],
  );
  return rows.map((row) => ({ ...row, texts: row.texts ?? [] }));
}

export async function findTemplate(db: Queryable, id: number): Promise<MessageTemplate | undefined> {
  return (await listTemplates(db, id))[0];
}

export async function lockTemplate(
  tx: Queryable,
  id: number,
): Promise<{ id: number; purpose: TemplatePurpose; name: string } | undefined> {
  const rows = await tx.query<{ id: number; purpose: TemplatePurpose; name: string }>(
    'SELECT id, purpose, name FROM message_templates WHERE id = $1 FOR UPDATE',
    [id],
  );
  return rows[0];
}

/** A name another template has (any case), or undefined. */
export async function findNameClash(db: Queryable, name: string, exceptId: number | null): Promise<string | undefined> {
  const rows = await db.query<{ name: string }>(
    'SELECT name FROM message_templates WHERE lower(name) = lower($1) AND ($2::int IS NULL OR id <> $2)',
    [name, exceptId],
  );
  return rows[0]?.name;
}

export async function insertTemplate(
  tx: Queryable,
  template: { name: string; purpose: TemplatePurpose; subject: string; updatedBy: string },
): Promise<number> {
  const rows = await tx.query<{ id: number }>(
    `INSERT INTO message_templates (name, purpose, subject, updated_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING RETURNING id`,
    [template.name, template.purpose, template.subject, template.updatedBy],
  );
  return rows[0]?.id ?? 0;
}

export async function updateTemplate(
  tx: Queryable,
  id: number,
  template: { name: string; subject: string; updatedBy: string },
): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE message_templates SET name = $2, subject = $3, updated_by = $4, updated_at = now()
      WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM message_templates o WHERE lower(o.name) = lower($2) AND o.id <> $1)
      RETURNING id`,
    [id, template.name, template.subject, template.updatedBy],
  );
  return rows.length > 0;
}

/**
 * The template's texts become exactly these (one per language), changed in place: a language left out
 * is deleted, a new one added, and one whose text or WhatsApp template name changed is updated, so the
 * audit log (migration 0026) has one row per language that changed, with its before and after, and
 * none for a language saved as it was.
 */
export async function replaceTexts(
  tx: Queryable,
  id: number,
  texts: readonly { language: string; body: string; whatsapp_template: string | null }[],
): Promise<void> {
  const languages = texts.map((t) => t.language);
  await tx.query('DELETE FROM message_template_texts WHERE template_id = $1 AND NOT (language = ANY($2::text[]))', [
    id,
    languages,
  ]);
  await tx.query(
    `INSERT INTO message_template_texts (template_id, language, body, whatsapp_template)
     SELECT $1, language, body, whatsapp_template FROM unnest($2::text[], $3::text[], $4::text[])
       AS t(language, body, whatsapp_template)
     ON CONFLICT (template_id, language) DO UPDATE SET body = EXCLUDED.body, whatsapp_template = EXCLUDED.whatsapp_template
      WHERE (message_template_texts.body, message_template_texts.whatsapp_template)
            IS DISTINCT FROM (EXCLUDED.body, EXCLUDED.whatsapp_template)`,
    [id, languages, texts.map((t) => t.body), texts.map((t) => t.whatsapp_template)],
  );
}

export async function deleteTemplate(tx: Queryable, id: number): Promise<void> {
  await tx.query('DELETE FROM message_templates WHERE id = $1', [id]);
}
