import {
  ALL_PARENTS,
  type Communication,
  normalisePhone,
  PHONE_HINT,
  type SendToParentsBody,
  type SendToParentsResult,
  type SendWhatsappBody,
  type SendWhatsappResult,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import { type Actor, plural, recordActivity } from '../../lib/activity-log';
import { BadGatewayError, NotFoundError, ServiceUnavailableError, ValidationError } from '../../lib/errors';
import {
  findStudentById,
  findStudentByUniqueId,
  insertParentMessages,
  insertWhatsappMessage,
  listCommunications,
  type MessageStudent,
} from './repository';
import { WhatsappError, type WhatsappSender } from './whatsapp';

/**
 * Stores one message per distinct parent phone in scope and queues them for delivery, with the
 * activity row, in one transaction: either every parent gets it or nobody does.
 */
export async function sendToParents(
  ctx: AppContext,
  sender: Actor,
  request: SendToParentsBody,
): Promise<SendToParentsResult> {
  const className = request.recipients === ALL_PARENTS ? null : request.recipients;
  const count = await ctx.db.transaction(async (tx) => {
    const ids = await insertParentMessages(tx, {
      subject: request.subject,
      body: request.message,
      className,
      sender,
    });
    if (ids.length === 0) {
      throw new ValidationError(
        'recipients',
        className ? `no parents found for Class ${className}` : 'no parents found',
      );
    }
    await ctx.delivery.enqueue(tx, ids);
    await recordActivity(
      tx,
      sender,
      'messages.sent_to_parents',
      `${sender.full_name} sent "${request.subject}" to ${plural(ids.length, 'parent')} of ${
        className ? `Class ${className}` : 'all classes'
      }`,
    );
    return ids.length;
  });
  ctx.delivery.notify();
  return { message: `Message sent to ${count} parent(s)`, recipients_count: count };
}

export function communicationHistory(ctx: AppContext, limit: number, offset: number): Promise<Communication[]> {
  return listCommunications(ctx.db, limit, offset);
}

export function requireWhatsapp(ctx: AppContext): WhatsappSender {
  if (!ctx.whatsapp) throw new ServiceUnavailableError('WhatsApp is not configured');
  return ctx.whatsapp;
}

const STUDENT_CODE = /^STU\d+$/i;
const MAX_ID = 2_147_483_647;

interface WhatsappTarget {
  phone: string;
  name: string | null;
}

/**
 * `to` is a phone, or a student's unique id standing for that student's parent; `student_id` names a
 * student by id or unique id. An explicit phone wins; the student then only names the recipient.
 */
async function resolveWhatsappTarget(db: Queryable, request: SendWhatsappBody): Promise<WhatsappTarget> {
  const toIsStudent = typeof request.to === 'string' && STUDENT_CODE.test(request.to);
  let phone: string | undefined;
  if (request.to !== undefined && !toIsStudent) {
    phone = normalisePhone(request.to);
    if (!phone) throw new ValidationError('to', PHONE_HINT);
  }
  const studentReference = request.student_id ?? (toIsStudent ? request.to : undefined);
  const student = studentReference === undefined ? undefined : await findStudent(db, studentReference);
  if (!student) return { phone: phone as string, name: null };
  return {
    phone: phone ?? student.parent_phone,
    name: student.parent_name.trim() || `Parent of ${student.full_name}`,
  };
}

async function findStudent(db: Queryable, reference: string | number): Promise<MessageStudent> {
  const text = String(reference).trim();
  let student: MessageStudent | undefined;
  if (/^\d+$/.test(text)) {
    const id = Number(text);
    student = id >= 1 && id <= MAX_ID ? await findStudentById(db, id) : undefined;
  } else {
    student = await findStudentByUniqueId(db, text);
  }
  if (!student) throw new NotFoundError(`Student ${text} was not found`);
  return student;
}

/**
 * Sends one WhatsApp text and stores it. The provider is called outside any transaction (no database
 * connection waits on the network); the row and its activity are written after, `failed` with the
 * reason when WhatsApp did not take the message, so the history shows every attempt.
 */
export async function sendWhatsapp(
  ctx: AppContext,
  sender: Actor,
  request: SendWhatsappBody,
): Promise<SendWhatsappResult> {
  const whatsapp = requireWhatsapp(ctx);
  const target = await resolveWhatsappTarget(ctx.db, request);

  let failure: WhatsappError | undefined;
  try {
    await whatsapp.send(target.phone, request.message);
  } catch (error) {
    failure = error instanceof WhatsappError ? error : new WhatsappError('WhatsApp could not be reached', true);
  }

  const id = await ctx.db.transaction(async (tx) => {
    const messageId = await insertWhatsappMessage(tx, {
      body: request.message,
      recipient: target.phone,
      recipientName: target.name,
      sender,
      status: failure ? 'failed' : 'sent',
      failureReason: failure ? failure.message : null,
    });
    await recordActivity(
      tx,
      sender,
      failure ? 'messages.whatsapp_failed' : 'messages.whatsapp_sent',
      failure
        ? `${sender.full_name} could not send a WhatsApp message to ${target.phone}: ${failure.message}`
        : `${sender.full_name} sent a WhatsApp message to ${target.phone}`,
    );
    return messageId;
  });

  if (failure) {
    throw new BadGatewayError(
      failure.isUnreachable
        ? 'WhatsApp could not be reached, so the message was not sent. Please try again later.'
        : `WhatsApp did not accept the message: ${failure.message}`,
    );
  }
  return { message: 'WhatsApp message sent', id, recipient: target.phone, delivery_status: 'sent' };
}
