import { FEE_REMINDER_REPLIES, type FeeReminderReply, feeReminderReplyKindSchema } from '@tuitiondesk/contract';

/**
 * The payload of a fee reminder's quick-reply button on WhatsApp (ADR 061): the message and the reply
 * it stands for (`fee:<message id>:<paid|will_pay|call>`). The Cloud API gives it back when the
 * parent taps; an absence alert's buttons carry `reply:…` (reply-payload.ts), so the two never mix.
 */
export function feeReplyPayload(messageId: number, reply: FeeReminderReply): string {
  return `fee:${messageId}:${reply}`;
}

/** The quick-reply payloads of a fee reminder, in the order the template's buttons are. */
export function feeButtonPayloads(messageId: number): string[] {
  return FEE_REMINDER_REPLIES.map((reply) => feeReplyPayload(messageId, reply));
}

/** A fee reminder's button payload read back, or undefined when it is not one. */
export function parseFeeReplyPayload(payload: string): { messageId: number; reply: FeeReminderReply } | undefined {
  const match = /^fee:(\d{1,10}):([a-z_]+)$/.exec(payload);
  if (!match) return undefined;
  const messageId = Number(match[1]);
  const reply = feeReminderReplyKindSchema.safeParse(match[2]);
  if (!reply.success || messageId < 1 || messageId > 2_147_483_647) return undefined;
  return { messageId, reply: reply.data };
}
