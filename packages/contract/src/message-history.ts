import { z } from 'zod';
import { pageQuerySchema } from './common';
import { communicationSchema, MESSAGE_KINDS, MESSAGE_REACH } from './messages';

/**
 * Message history grouped by message (issue 28, item 4; ADR 049). The spec's
 * GET /communications/history stays one item per recipient, unchanged; these answers sit beside it.
 */

/** One family's message, with where it stands by the shared definition (`message_reach`, ADR 044). */
export const familyMessageSchema = communicationSchema
  .extend({
    reach: z
      .enum(MESSAGE_REACH)
      .describe('read, delivered, sent_by_hand, not_reached or waiting: the send list and analytics say the same'),
    sent_by_hand_at: z.string().nullable(),
    sent_by_hand_by: z.string().nullable(),
  })
  .meta({ id: 'FamilyMessage' });
export type FamilyMessage = z.infer<typeof familyMessageSchema>;

/**
 * Families by where the message stands with each, each family in exactly one of them: their sum is
 * `families` ("Sent to 141: 12 delivered, 1 read, 128 not reached").
 */
const groupReach = {
  families: z.number().int().describe('families the message went to (distinct parent phones)'),
  read: z.number().int().describe('families who opened it'),
  delivered: z.number().int().describe('families it reached and who have not opened it (read ones not included)'),
  sent_by_hand: z.number().int().describe('families staff sent it to by hand, from their own phones'),
  not_reached: z.number().int().describe('families nothing reached (as the send list says)'),
  waiting: z.number().int().describe('families a channel has it for, still within the time for its proof'),
  replies: z.number().int().describe('families who replied to it'),
};

export const messageGroupSchema = z
  .object({
    send_id: z
      .number()
      .int()
      .nullable()
      .describe(
        'the send (a notice, one approval’s alerts): its families by GET /communications/history/sends/{id}; null for a message to one family',
      ),
    kind: z.enum(MESSAGE_KINDS),
    subject: z.string(),
    message: z.string().describe("the text as staff sent it (a send's English text when it has one)"),
    recipients: z
      .string()
      .nullable()
      .describe('all_parents or the class of a send; null for a message to one family (see `family`)'),
    sent_at: z.string(),
    sent_by: z.string().nullable(),
    ...groupReach,
    family: familyMessageSchema
      .nullable()
      .describe('the one family a message without a send went to (a WhatsApp message, an access or leave notice)'),
  })
  .meta({ id: 'MessageGroup' });
export type MessageGroup = z.infer<typeof messageGroupSchema>;

export const messageGroupsSchema = z.array(messageGroupSchema);
export const messageGroupsQuerySchema = pageQuerySchema({ maxLimit: 500, defaultLimit: 50 });
export const sendFamiliesSchema = z.array(familyMessageSchema);
