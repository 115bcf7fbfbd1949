import { z } from 'zod';
import { PARENT_LANGUAGES } from './common';

/** Parent-app codes for a whole class at once (issue 28, item 6; ADR 047). */
export const bulkParentAccessSchema = z.object({
  class_name: z.string({ error: 'is required' }).trim().min(1, 'is required').max(50, 'is too long'),
  regenerate: z
    .boolean({ error: 'must be true or false' })
    .default(false)
    .describe('also replace the codes of families that have one (their devices are signed out and told)'),
});
export type BulkParentAccessRequest = z.input<typeof bulkParentAccessSchema>;

const familySchema = z.object({
  phone: z.string(),
  parent_name: z.string(),
  children: z.array(z.string()).describe("the family's children in the class"),
  language: z.enum(PARENT_LANGUAGES),
});

export const bulkParentAccessResultSchema = z
  .object({
    class_name: z.string(),
    centre_name: z.string(),
    issued: z.array(
      familySchema.extend({
        code: z.string().describe('shown once, as XXXX-XXXX: only its hash is kept'),
        replaced: z.boolean().describe('the family had a code, which this one replaces'),
        slip: z.object({
          title: z.string(),
          steps: z.array(z.string()).length(3),
          share_text: z.string().describe('for a WhatsApp click-to-chat message; the sign-in link goes after it'),
        }),
      }),
    ),
    skipped: z.array(familySchema).describe('families that already have a code (regenerate: false)'),
    message: z.string(),
  })
  .meta({ id: 'BulkParentAccessResult' });
export type BulkParentAccessResult = z.infer<typeof bulkParentAccessResultSchema>;
