import { z } from 'zod';
import { PARENT_LANGUAGES, parentLanguageSchema, requiredText } from './common';

/**
 * The centre's message templates (the Communications screen's Templates tab). Each has one text per
 * language; a family gets the text in its language, else the English one. Placeholders are filled
 * for each family when the message is sent.
 */
export const TEMPLATE_PURPOSES = ['notice', 'absence_alert', 'late_alert'] as const;
export type TemplatePurpose = (typeof TEMPLATE_PURPOSES)[number];
export const TEMPLATE_PURPOSE_LABELS: Record<TemplatePurpose, string> = {
  notice: 'Notice to parents',
  absence_alert: 'Absence alert',
  late_alert: 'Late alert',
};

/**
 * What a text may say in braces. An alert fills all five; a notice to a class or to all parents is
 * about no one student, so it fills {class} (the recipients), {date} (the day it is sent) and
 * {centre_name}.
 */
export const TEMPLATE_PLACEHOLDERS = ['student_name', 'class', 'date', 'status', 'centre_name'] as const;
export type TemplatePlaceholder = (typeof TEMPLATE_PLACEHOLDERS)[number];
export const NOTICE_PLACEHOLDERS: readonly TemplatePlaceholder[] = ['class', 'date', 'centre_name'];

/** The placeholders a text uses, in the order they appear (the WhatsApp template's {{1}}, {{2}}, …). */
export function placeholdersIn(text: string): string[] {
  return [...text.matchAll(/\{([a-z_]+)\}/g)].map((match) => match[1] as string);
}

/** The text with each known placeholder replaced by its value; unknown braces stay as written. */
export function fillPlaceholders(text: string, values: Partial<Record<TemplatePlaceholder, string>>): string {
  return text.replace(/\{([a-z_]+)\}/g, (whole, name: string) => values[name as TemplatePlaceholder] ?? whole);
}

/** A WhatsApp template name as Meta allows it: lowercase letters, digits and underscores. */
export const WHATSAPP_TEMPLATE_NAME = /^[a-z0-9_]{1,512}$/;

const templateTextFields = {
  language: parentLanguageSchema,
  body: requiredText(1024),
  whatsapp_template: z
    .string()
    .trim()
    .max(512, 'must be at most 512 characters')
    .regex(/^[a-z0-9_]*$/, 'must be the approved template name: lowercase letters, digits and _')
    .nullish()
    .transform((value) => (value ? value : null)),
};

export const templateTextSchema = z
  .object({ language: z.enum(PARENT_LANGUAGES), body: z.string(), whatsapp_template: z.string().nullable() })
  .meta({ id: 'TemplateText' });
export type TemplateText = z.infer<typeof templateTextSchema>;

export const messageTemplateSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    purpose: z.enum(TEMPLATE_PURPOSES),
    subject: z.string(),
    texts: z.array(templateTextSchema).describe('one per language, English first'),
    updated_by: z.string().nullable(),
    updated_at: z.string(),
  })
  .meta({ id: 'MessageTemplate' });
export type MessageTemplate = z.infer<typeof messageTemplateSchema>;
export const messageTemplateListSchema = z.array(messageTemplateSchema);

/**
 * Creating or replacing a template. Texts: English is required, at most one per language; a text may
 * use only the placeholders its purpose fills.
 */
export const saveMessageTemplateSchema = z
  .object({
    name: requiredText(100),
    purpose: z.enum(TEMPLATE_PURPOSES, { error: 'must be notice, absence_alert or late_alert' }).default('notice'),
    subject: requiredText(200),
    texts: z
      .array(z.object(templateTextFields))
      .min(1, 'must include the English text')
      .max(PARENT_LANGUAGES.length, 'must have at most one text per language'),
  })
  .superRefine((template, context) => {
    const languages = template.texts.map((text) => text.language);
    if (!languages.includes('en')) {
      context.addIssue({ code: 'custom', path: ['texts'], message: 'must include the English text' });
    }
    languages.forEach((language, index) => {
      if (languages.indexOf(language) !== index) {
        context.addIssue({
          code: 'custom',
          path: ['texts', index, 'language'],
          message: `has a second ${language} text`,
        });
      }
    });
    const allowed: readonly string[] = template.purpose === 'notice' ? NOTICE_PLACEHOLDERS : TEMPLATE_PLACEHOLDERS;
    template.texts.forEach((text, index) => {
      const unknown = placeholdersIn(text.body).filter((name) => !allowed.includes(name));
      if (unknown.length > 0) {
        context.addIssue({
          code: 'custom',
          path: ['texts', index, 'body'],
          message: `uses {${unknown[0]}}, which ${
            template.purpose === 'notice' ? 'a notice' : 'an alert'
          } cannot fill; use ${allowed.map((name) => `{${name}}`).join(', ')}`,
        });
      }
    });
  });
export type SaveMessageTemplateRequest = z.input<typeof saveMessageTemplateSchema>;
export type SaveMessageTemplateBody = z.output<typeof saveMessageTemplateSchema>;
