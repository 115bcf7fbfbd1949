import {
  ALL_PARENTS,
  activityWords,
  type Communication,
  type FamilyCount,
  namingClasses,
  type SendToParentsBody,
  type SendToParentsResult,
  type SendWhatsappBody,
  type SendWhatsappResult,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import { type Actor, plural, recordActivity } from '../../lib/activity-log';
import {
  BadGatewayError,
  ConflictError,
  fieldWords,
  NotFoundError,
  ServiceUnavailableError,
  ValidationError,
} from '../../lib/errors';
import { today } from '../../lib/time';
import { readClassLabels, requireRecipients } from '../classes';
import {
  countByChannel,
  type FamilyMessage,
  familyChannel,
  type PlaceholderValues,
  type QueuedSend,
  queueFamilyMessages,
  readMessagingSettings,
  renderForFamily,
  sendWhatsappNow,
  wakeSenders,
  whatsappIsOn,
} from '../delivery';
import { familyDate, familyTexts, findFamilies } from '../families';
import { readWrittenPhone } from '../settings';
import { findTemplateForSending, type TemplateForSending } from '../templates';
import {
  findStudentById,
  findStudentByUniqueId,
  insertOneOffWhatsapp,
  listCommunications,
  type MessageStudent,
  whatsappStanding,
} from './repository';

/**
 * Stores one message per family in scope and queues each on the first channel that reaches it, with
 * the activity row, in one transaction: either every family gets it or nobody does.
 */
export async function sendToParents(
  ctx: AppContext,
  sender: Actor,
  request: SendToParentsBody,
): Promise<SendToParentsResult> {
  // all_parents or one of the centre's classes as written ("Class 7" is 7; ADR 043).
  const recipients = await requireRecipients(ctx.db, 'recipients', request.recipients);
  const className = recipients === ALL_PARENTS ? null : recipients;
  const settings = await readMessagingSettings(ctx.db);
  const template = request.template_id === undefined ? undefined : await noticeTemplate(ctx.db, request.template_id);
  const labelOf = await readClassLabels(ctx.db);
  const day = today();
  // A template's own text is filled in its language; what staff typed is never touched.
  const valuesIn: PlaceholderValues = (language) => ({
    class: className
      ? familyTexts(language).className(className, labelOf(className))
      : familyTexts(language).allClasses,
    date: familyDate(day, language),
    centre_name: settings.centre_name,
  });
  const typed: FamilyMessage['whatsapp'] = settings.whatsapp_notice_template
    ? {
        template: settings.whatsapp_notice_template,
        language: 'en',
        parameters: [settings.centre_name, request.subject, request.message],
        buttons: false,
      }
    : null;

  const queued = await ctx.db.transaction(async (tx) => {
    const families = await findFamilies(tx, className);
    if (families.length === 0) {
      throw className
        ? new ValidationError(
            'recipients',
            namingClasses(fieldWords('validation.no_parents_in_class', { class_name: className }), labelOf),
          )
        : new ValidationError('recipients', 'validation.no_parents');
    }
    const messages: FamilyMessage[] = families.map((family) => {
      // What staff typed goes as written; a template's own text in the family's language replaces it.
      const own = template && family.language !== 'en' ? template.texts[family.language] : undefined;
      const rendered = template ? renderForFamily(template, family.language, valuesIn, false) : undefined;
      return {
        family,
        kind: 'notice',
        subject: request.subject,
        body: own && rendered ? rendered.body : request.message,
        language: own ? family.language : 'en',
        studentId: null,
        attendanceId: null,
        whatsapp: (own ? rendered?.whatsapp : undefined) ?? typed,
      };
    });
    const result = await queueFamilyMessages(
      ctx,
      tx,
      {
        kind: 'notice',
        subject: request.subject,
        recipients: className ?? ALL_PARENTS,
        templateId: template?.id ?? null,
        sender,
      },
      messages,
      settings.whatsapp_fallback_minutes,
    );
    await recordActivity(
      tx,
      sender,
      'messages.sent_to_parents',
      className
        ? activityWords('messages.sent_to_class', {
            subject: request.subject,
            count: messages.length,
            class_name: className,
          })
        : activityWords('messages.sent_to_all_classes', { subject: request.subject, count: messages.length }),
    );
    return result;
  });
  wakeSenders(ctx);
  const count = queued.messageIds.length;
  return {
    message: sentMessage(queued),
    recipients_count: count,
    in_app_count: queued.inApp,
    whatsapp_count: queued.whatsapp,
    unreachable_count: queued.unreachable,
    whatsapp_waiting: queued.whatsappWaiting,
    notice: sendNotice(ctx, queued),
  };
}

/**
 * How many families a send to `recipients` would write to now (the same selection as the send's), and
 * which channel reaches each first, as the send would choose it for a typed message (ADR 044).
 */
export async function countRecipientFamilies(ctx: AppContext, written: string): Promise<FamilyCount> {
  const recipients = await requireRecipients(ctx.db, 'recipients', written);
  const className = recipients === ALL_PARENTS ? null : recipients;
  const [families, settings] = await Promise.all([findFamilies(ctx.db, className), readMessagingSettings(ctx.db)]);
  const whatsappOn = whatsappIsOn(ctx);
  const hasWhatsappText = settings.whatsapp_notice_template !== '';
  const counts = countByChannel(families.map((family) => familyChannel(whatsappOn, family, hasWhatsappText)));
  return {
    recipients,
    families: families.length,
    in_app: counts.app,
    whatsapp: counts.whatsapp,
    no_channel: counts.none,
  };
}

/**
 * The answer's `message` (what a client of the spec shows), true to what happened: "sent" only of the
 * families a channel took; those none reaches are said to be on the send list (ADR 044).
 */
export function sentMessage(queued: Pick<QueuedSend, 'messageIds' | 'inApp' | 'whatsapp' | 'unreachable'>): string {
  const count = queued.messageIds.length;
  if (queued.unreachable === 0) return `Message sent to ${count} parent(s)`;
  const channels = `${queued.inApp} in the app, ${queued.whatsapp} on WhatsApp, ${queued.unreachable} with no channel yet: they go on your send list`;
  if (queued.unreachable === count) return `No channel reaches these ${count} families yet (${channels}).`;
  return `Message sent to ${count - queued.unreachable} of ${count} parent(s): ${channels}.`;
}

async function noticeTemplate(db: Queryable, id: number): Promise<TemplateForSending> {
  const template = await findTemplateForSending(db, { id });
  if (!template) throw new ValidationError('template_id', 'validation.unknown_template');
  if (template.purpose !== 'notice') throw new ValidationError('template_id', 'validation.not_notice_template');
  return template;
}

/** What staff should know beyond the counts: WhatsApp messages waiting for the daily limit. */
function sendNotice(ctx: AppContext, queued: QueuedSend): string | null {
  const parts: string[] = [];
  if (queued.whatsappWaiting > 0) {
    parts.push(
      `${plural(queued.whatsappWaiting, 'WhatsApp message')} ${queued.whatsappWaiting === 1 ? 'is' : 'are'} over WhatsApp's daily limit of ${ctx.config.whatsapp?.dailyLimit} new conversations and will go as the limit allows.`,
    );
  }
  return parts.length > 0 ? parts.join(' ') : null;
}

export function communicationHistory(ctx: AppContext, limit: number, offset: number): Promise<Communication[]> {
  return listCommunications(ctx.db, limit, offset);
}

export function requireWhatsapp(ctx: AppContext): NonNullable<AppContext['whatsapp']> {
  if (!ctx.whatsapp) throw new ServiceUnavailableError('whatsapp.not_configured');
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
    phone = await readWrittenPhone(db, 'to', request.to);
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
  if (!student) throw new NotFoundError('messages.student_not_found', { reference: text });
  // A family is written to while a child of theirs attends (ADR 027); a scrubbed one has no phone at all.
  if (student.left_on !== null) {
    throw new ConflictError('messages.student_left', { name: student.full_name });
  }
  return student;
}

/**
 * Sends one WhatsApp message to one parent, by the rules every WhatsApp message follows: free text
 * while the parent's last message is less than 24 hours old, else the centre's notice template, which
 * needs the family's opt-in and room under the daily limit (over it, the message waits, queued). A
 * parent who opted out is not written to. Delivery sends it (sendWhatsappNow): the row and its attempt
 * are stored before the provider is called, outside any transaction; the activity is written after,
 * the attempt `failed` with the reason when WhatsApp did not take it.
 */
export async function sendWhatsapp(
  ctx: AppContext,
  sender: Actor,
  request: SendWhatsappBody,
): Promise<SendWhatsappResult> {
  const whatsapp = requireWhatsapp(ctx);
  const target = await resolveWhatsappTarget(ctx.db, request);
  const settings = await readMessagingSettings(ctx.db);
  const standing = await whatsappStanding(ctx.db, target.phone);
  if (standing.optedOutByParent) {
    throw new ConflictError('whatsapp.opted_out');
  }
  const sent = await sendWhatsappNow(ctx, whatsapp, {
    phone: target.phone,
    optedIn: standing.optedIn,
    text: request.message,
    template: {
      template: settings.whatsapp_notice_template,
      language: 'en',
      parameters: [settings.centre_name, 'Message', request.message],
    },
    store: async (tx, whatsappRequest, state) => {
      const ids = await insertOneOffWhatsapp(tx, {
        body: request.message,
        recipient: target.phone,
        recipientName: target.name,
        sender,
        request: whatsappRequest,
        state,
      });
      if (state.kind === 'waiting') {
        await recordActivity(tx, sender, 'messages.whatsapp_queued', 'messages.whatsapp_queued', {
          phone: target.phone,
        });
      }
      return ids;
    },
    record: (tx, failure) =>
      recordActivity(
        tx,
        sender,
        failure ? 'messages.whatsapp_failed' : 'messages.whatsapp_sent',
        failure
          ? activityWords('messages.whatsapp_failed', { phone: target.phone, reason: failure.reason })
          : activityWords('messages.whatsapp_sent', { phone: target.phone }),
      ),
  });
  if (sent.outcome === 'waiting') {
    return {
      message: `WhatsApp message queued. ${sent.reason}`,
      id: sent.messageId,
      recipient: target.phone,
      delivery_status: 'queued',
      sent_as: 'template',
    };
  }
  if (sent.outcome === 'failed') {
    throw sent.unreachable
      ? new BadGatewayError('whatsapp.unreachable')
      : new BadGatewayError('whatsapp.rejected', { reason: sent.reason });
  }
  return {
    message: 'WhatsApp message sent',
    id: sent.messageId,
    recipient: target.phone,
    delivery_status: 'sent',
    sent_as: sent.sentAs,
  };
}
