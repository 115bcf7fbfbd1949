import { PARENT_REPLIES, type ParentReply, parentReplySchema } from '@tuitiondesk/contract';

/**
 * The payload of an alert's quick-reply button on WhatsApp: the message and the reply it stands for
 * (`reply:<message id>:<sick|family|late|call>`). The Cloud API gives it back when the parent taps.
 */
export function replyPayload(messageId: number, reply: ParentReply): string {
  return `reply:${messageId}:${reply}`;
}

/** The quick-reply payloads of an alert, in the order the template's buttons are. */
export function alertButtonPayloads(messageId: number): string[] {
  return PARENT_REPLIES.map((reply) => replyPayload(messageId, reply));
}

/** A button payload read back, or undefined when it is not one of ours. */
export function parseReplyPayload(payload: string): { messageId: number; reply: ParentReply } | undefined {
  const match = /^reply:(\d{1,10}):([a-z]+)$/.exec(payload);
  if (!match) return undefined;
  const messageId = Number(match[1]);
  const reply = parentReplySchema.safeParse(match[2]);
  if (!reply.success || messageId < 1 || messageId > 2_147_483_647) return undefined;
  return { messageId, reply: reply.data };
}
