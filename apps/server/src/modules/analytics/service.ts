import type { MessageAnalytics, MessageKind } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { sessionTimeZone } from '../../db/database';
import { ValidationError } from '../../lib/errors';
import { addDays, firstDayOfMonth, today } from '../../lib/time';
import { notReachedBefore } from '../call-list';
import { readMessagingSettings } from '../delivery';
import { countReach, type ReachGroupRow, type ReachRow } from './repository';

/**
 * Meta's price for one utility template message delivered to an Indian number, in INR: ₹0.115 on
 * Meta's India rate card in effect from 1 January 2026 (per-message pricing; looked up in November
 * 2026). Volume tiers lower it only past 750,000 messages a month; a Business Solution Provider adds
 * its own fee, and GST is extra. docs/whatsapp.md says where a centre checks the rate it pays.
 */
export const UTILITY_PRICE_INR = 0.115;

/** The period shown when none is asked for: the last 30 days, today included. */
const DEFAULT_DAYS = 30;
/** The longest period one answer covers (a year, a leap day included). */
const MAX_DAYS = 366;

const REACH_KEYS = [
  'families',
  'in_app',
  'whatsapp',
  'delivered',
  'read',
  'replies',
  'sent_by_hand',
  'not_reached',
] as const;

function reachOf(row: ReachRow | undefined): ReachRow {
  const counts = {} as ReachRow;
  for (const key of REACH_KEYS) counts[key] = row?.[key] ?? 0;
  return counts;
}

/** Whole days from `from` to `to`, both included. */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** The period asked for, or its defaults: the 30 days up to today in the centre's time zone. */
export function resolveRange(query: { from?: string | undefined; to?: string | undefined }): {
  from: string;
  to: string;
} {
  const to = query.to ?? today();
  const from = query.from ?? addDays(to, -(DEFAULT_DAYS - 1));
  if (to < from) throw new ValidationError('to', 'validation.not_before_date', { from });
  if (daysBetween(from, to) > MAX_DAYS) {
    throw new ValidationError('to', 'validation.period_too_long', { days: MAX_DAYS });
  }
  return { from, to };
}

export async function getAnalytics(
  ctx: AppContext,
  query: { from?: string | undefined; to?: string | undefined },
): Promise<MessageAnalytics> {
  const { from, to } = resolveRange(query);
  const month = firstDayOfMonth(today());
  const { not_reached_minutes } = await readMessagingSettings(ctx.db);
  const rows = await countReach(ctx.db, {
    from,
    to,
    month,
    timeZone: sessionTimeZone(),
    notReachedBefore: notReachedBefore(not_reached_minutes),
  });

  const total = rows.find((row) => row.level === 'total');
  const byDay = new Map(rows.filter((row) => row.level === 'day').map((row) => [row.day, row]));
  const sends = rows.filter((row): row is ReachGroupRow & { send_id: number } => row.level === 'send');
  const templateMessages = total?.template_messages ?? 0;

  return {
    from,
    to,
    totals: reachOf(total),
    sends: sends.map((send) => ({
      id: send.send_id,
      kind: send.kind as MessageKind,
      subject: send.subject ?? '',
      recipients: send.recipients ?? '',
      sent_at: send.sent_at ?? '',
      sent_by: send.sent_by,
      ...reachOf(send),
    })),
    days: Array.from({ length: daysBetween(from, to) }, (_, index) => {
      const date = addDays(from, index);
      return { date, ...reachOf(byDay.get(date)) };
    }),
    whatsapp_cost: {
      month: month.slice(0, 7),
      template_messages: templateMessages,
      price_per_message: UTILITY_PRICE_INR,
      currency: 'INR',
      estimate: Math.round(templateMessages * UTILITY_PRICE_INR * 100) / 100,
    },
  };
}
