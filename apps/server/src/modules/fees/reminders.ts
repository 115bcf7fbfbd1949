/**
 * Fee reminders, the sending side (issue 29, ADR 061). A round, for the centre's today, reminds each
 * family with an unpaid charge due `offset` days from today (an offset of the schedule), once per
 * family, due date and offset (the UNIQUE key: a round run twice, late, or by two instances at once
 * sends nothing twice), one message per family however many match. Each family is checked against the
 * ledger at the moment of sending, in the sending transaction, under the lock its payments take: a
 * family that owes nothing by then gets nothing (skipped_paid), nor does one whose promise to pay has
 * not passed (skipped_promised). The message goes through the delivery cascade in the family's language.
 */
import type {
  FeeReminderRun,
  FeeReminderSchedule,
  FeeReminderSettings,
  ParentLanguage,
  ParentPayLink,
  UpdateFeeReminderSettingsRequest,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import type { ActivityActor, Actor } from '../../lib/activity-log';
import { addDays, today } from '../../lib/time';
import { queueFamilyMessages, readMessagingSettings, wakeSenders, whatsappIsOn } from '../delivery';
import { familyDate, findFamilyChannels } from '../families';
import { familiesDetails } from './fee-families';
import { familyBalance, lockFeeFamily, openCharges } from './ledger';
import { formatRupees } from './receipt-texts';
import { reminderText } from './reminder-texts';
import {
  claimReminders,
  type DueCharge,
  familiesWithChargesDueOn,
  hasActivePromise,
  readReminderSettings,
  reminderKey,
  sentReminderKeys,
  setReminderMessage,
  storeLastRun,
  writeReminderSettings,
} from './reminders-repository';

/** The WhatsApp utility template a reminder goes out as (docs/whatsapp.md), with its reply buttons. */
export const FEE_REMINDER_TEMPLATE = 'tuitiondesk_fee_reminder';

/** Who the automatic round's messages are from (no account: the messages table allows none). */
export const REMINDER_SCHEDULER: ActivityActor = { id: null, full_name: 'System' };

/**
 * The family's one Razorpay link for its balance (the payment-gateway module's, which fees cannot
 * import: the app hands it in, as it does for the parent app's Pay button, ADR 059).
 */
export interface ReminderPayLinks {
  make(ctx: AppContext, actor: ActivityActor, familyId: number): Promise<ParentPayLink>;
}

async function scheduleOf(ctx: AppContext, db: Queryable): Promise<FeeReminderSchedule> {
  const { settings, lastRun } = await readReminderSettings(db);
  return { ...settings, last_run: lastRun, whatsapp_template: whatsappIsOn(ctx) };
}

export function getReminderSchedule(ctx: AppContext): Promise<FeeReminderSchedule> {
  return scheduleOf(ctx, ctx.db);
}

/** PUT /fees/reminders/settings: what is given changes, the offsets kept ascending; audited by the table's trigger. */
export function updateReminderSettings(
  ctx: AppContext,
  update: UpdateFeeReminderSettingsRequest,
): Promise<FeeReminderSchedule> {
  return ctx.db.transaction(async (tx) => {
    const { settings } = await readReminderSettings(tx, true);
    const next: FeeReminderSettings = {
      enabled: update.enabled ?? settings.enabled,
      offsets: [...(update.offsets ?? settings.offsets)].sort((a, b) => a - b),
      hour: update.hour ?? settings.hour,
    };
    await writeReminderSettings(tx, next);
    return scheduleOf(ctx, tx);
  });
}

interface RoundContext {
  ctx: AppContext;
  links: ReminderPayLinks;
  day: string;
  sender: ActivityActor;
  centreName: string;
  fallbackMinutes: number;
}

type Outcome = 'sent' | 'skipped_paid' | 'skipped_promised' | 'none';

/**
 * One round for the centre's today at `now`: by hand (POST /fees/reminders/run, whatever `enabled`
 * says) or by the loop at the set hour. Answers the figures and keeps them as the schedule's last run.
 */
export async function runReminderRound(
  ctx: AppContext,
  links: ReminderPayLinks,
  options: { now?: Date; sender?: ActivityActor } = {},
): Promise<FeeReminderRun> {
  const now = options.now ?? new Date();
  const day = today(now);
  const { settings } = await readReminderSettings(ctx.db);
  const messaging = await readMessagingSettings(ctx.db);
  const round: RoundContext = {
    ctx,
    links,
    day,
    sender: options.sender ?? REMINDER_SCHEDULER,
    centreName: messaging.centre_name,
    fallbackMinutes: messaging.whatsapp_fallback_minutes,
  };
  // A charge due on `date` is reminded of today for each offset with date + offset = today.
  const dates = settings.offsets.map((offset) => addDays(day, -offset));
  const scheduled = scheduledByFamily(await familiesWithChargesDueOn(ctx.db, dates), day);
  const alreadySent = await sentReminderKeys(ctx.db, [...scheduled.keys()]);
  const figures = { sent: 0, skipped_paid: 0, skipped_promised: 0 };
  for (const [familyId, matches] of scheduled) {
    const due = matches.filter((match) => !alreadySent.has(reminderKey(familyId, match.dueOn, match.offset)));
    if (due.length === 0) continue;
    const outcome = await remindFamily(round, familyId, due);
    if (outcome !== 'none') figures[outcome] += 1;
  }
  if (figures.sent > 0) wakeSenders(ctx);
  return storeLastRun(ctx.db, figures, now);
}

interface Match {
  dueOn: string;
  offset: number;
}

function scheduledByFamily(charges: readonly DueCharge[], day: string): Map<number, Match[]> {
  const byFamily = new Map<number, Match[]>();
  for (const charge of charges) {
    const offset = daysFrom(charge.dueOn, day);
    const list = byFamily.get(charge.familyId) ?? [];
    list.push({ dueOn: charge.dueOn, offset });
    byFamily.set(charge.familyId, list);
  }
  return byFamily;
}

const DAY_MS = 86_400_000;
const daysFrom = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/** The matches whose charge is still unpaid in the ledger's allocation (oldest due first, as the dues report). */
async function unpaidMatches(db: Queryable, familyId: number, matches: readonly Match[]): Promise<Match[]> {
  const open = new Set((await openCharges(db, [familyId])).map((charge) => charge.dueOn));
  return matches.filter((match) => open.has(match.dueOn));
}

/**
 * The pay link, asked for before the sending transaction (Razorpay is never waited on under the
 * family's lock), and only for a family that looks due; the transaction checks again. No link
 * (online payment off, Razorpay away): the message says to pay at the centre.
 */
async function payLinkFor(round: RoundContext, familyId: number, matches: readonly Match[]): Promise<string | null> {
  const { ctx } = round;
  if (!ctx.config.razorpay) return null;
  if ((await familyBalance(ctx.db, familyId)) <= 0) return null;
  if ((await unpaidMatches(ctx.db, familyId, matches)).length === 0) return null;
  if (await hasActivePromise(ctx.db, familyId, round.day)) return null;
  try {
    return (await round.links.make(ctx, round.sender, familyId)).url;
  } catch {
    return null;
  }
}

async function remindFamily(round: RoundContext, familyId: number, matches: readonly Match[]): Promise<Outcome> {
  const link = await payLinkFor(round, familyId, matches);
  return round.ctx.db.transaction(async (tx) => {
    // The lock payments take: a payment either committed before this read or waits for the reminder.
    await lockFeeFamily(tx, familyId);
    const balance = await familyBalance(tx, familyId);
    const unpaid = balance > 0 ? await unpaidMatches(tx, familyId, matches) : [];
    if (unpaid.length === 0) return 'skipped_paid';
    if (await hasActivePromise(tx, familyId, round.day)) return 'skipped_promised';
    const family = (await familiesDetails(tx, [familyId])).get(familyId);
    const channels = family?.parent_phone ? await findFamilyChannels(tx, family.parent_phone) : undefined;
    // A family whose phone was erased, or with no student on record any more, has no one to remind.
    if (!family || !channels) return 'none';
    const claimed = await claimReminders(tx, familyId, unpaid, balance);
    if (claimed.length === 0) return 'none';
    const openStudents = new Set(
      (await openCharges(tx, [familyId])).filter((c) => c.studentId !== null).map((c) => c.studentId),
    );
    const named = family.students.filter((student) => openStudents.has(student.id));
    const oldest = unpaid.reduce((first, match) => (match.dueOn < first ? match.dueOn : first), unpaid[0]?.dueOn ?? '');
    const text = reminderTexts(channels.language, {
      centre: round.centreName,
      amount: formatRupees(balance, channels.language),
      children: (named.length > 0 ? named : family.students).map((student) => student.full_name).join(', '),
      date: familyDate(oldest, channels.language),
      overdue: oldest < round.day,
      link,
    });
    const queued = await queueFamilyMessages(
      round.ctx,
      tx,
      {
        kind: 'fee_reminder',
        subject: text.subject,
        recipients: null,
        templateId: null,
        sender: round.sender as Actor,
      },
      [
        {
          family: channels,
          kind: 'fee_reminder',
          subject: text.subject,
          body: text.body,
          language: channels.language,
          studentId: named.length === 1 ? (named[0]?.id ?? null) : null,
          attendanceId: null,
          whatsapp: {
            template: FEE_REMINDER_TEMPLATE,
            language: channels.language,
            parameters: text.parameters,
            buttons: true,
          },
        },
      ],
      round.fallbackMinutes,
    );
    await setReminderMessage(tx, claimed, queued.messageIds[0] ?? null);
    return 'sent';
  });
}

/**
 * The reminder in the family's language: the app's text, and the WhatsApp template's parameters
 * ({{1}} centre, {{2}} amount, {{3}} children, {{4}} due date, {{5}} the pay line).
 */
export function reminderTexts(
  language: ParentLanguage,
  values: { centre: string; amount: string; children: string; date: string; overdue: boolean; link: string | null },
): { subject: string; body: string; parameters: string[] } {
  const { link, overdue, ...words } = values;
  const payLine = link
    ? reminderText(language, 'message.pay_online', { link })
    : reminderText(language, 'message.pay_at_centre');
  const body = `${reminderText(language, overdue ? 'message.overdue' : 'message.due', words)} ${payLine}`;
  return {
    subject: reminderText(language, 'message.subject'),
    body,
    parameters: [values.centre, values.amount, values.children, values.date, payLine],
  };
}
