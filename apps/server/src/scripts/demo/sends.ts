/**
 * The demo's messages to parents (content.json): one row per parent phone in the class (or the
 * centre), as the messages module stores a send, most delivered, some still on their way, a few failed.
 */
import type { DeliveryStatus } from '@tuitiondesk/contract';
import { addDays } from '../../lib/time';
import { type Clock, isSunday } from './calendar';
import { DEMO_CONTENT } from './content';
import { between, pick, type Random, weighted } from './random';
import type { DemoRecipient, DemoSend, DemoStudent } from './types';

const { sends: SENDS, failure_reasons: FAILURE_REASONS } = DEMO_CONTENT;

/** The latest send has had less time to arrive. */
const DELIVERY_ODDS: Record<'latest' | 'earlier', [DeliveryStatus, number][]> = {
  latest: [
    ['delivered', 60],
    ['sent', 35],
    ['failed', 5],
  ],
  earlier: [
    ['delivered', 91],
    ['sent', 5],
    ['failed', 4],
  ],
};

/** Each parent phone among the students in the class (every class: null) once, with the first parent name on it. */
function parentsOf(students: DemoStudent[], className: DemoSend['class_name']): [string, string][] {
  const parents = new Map<string, string>();
  for (const student of students) {
    if (className !== null && student.class_name !== className) continue;
    if (!parents.has(student.parent_phone)) parents.set(student.parent_phone, student.parent_name);
  }
  return [...parents.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

export function makeSends(random: Random, clock: Clock, students: DemoStudent[], schoolDays: string[]): DemoSend[] {
  return SENDS.map((spec, index) => {
    let date = clock.daysAgo(spec.days_ago);
    while (isSunday(date) && date > (schoolDays[0] as string)) date = addDays(date, -1);
    const sentAt = clock.at(date, spec.hours, spec.minutes, between(random, 0, 59));
    const odds = DELIVERY_ODDS[index === SENDS.length - 1 ? 'latest' : 'earlier'];
    const recipients = parentsOf(students, spec.class_name).map(([phone, name]): DemoRecipient => {
      const status = weighted(random, odds);
      const deliveredAt =
        status === 'delivered'
          ? new Date(
              Math.min(Date.parse(sentAt) + between(random, 5, 90 * 60) * 1000, clock.now.getTime() - 30_000),
            ).toISOString()
          : null;
      return {
        phone,
        name,
        delivery_status: status,
        delivered_at: deliveredAt,
        failure_reason: status === 'failed' ? pick(random, FAILURE_REASONS) : null,
      };
    });
    const { subject, message, class_name, sent_by } = spec;
    return { subject, message, class_name, sent_by, sent_at: sentAt, recipients };
  });
}
