import type { Queryable } from '../../db/database';

/**
 * A fee reminder never reaches a family that paid meanwhile (ADR 061). SQL true when message `message`
 * is a fee reminder whose family owes nothing now (its receivable entries sum to zero or less). Plain
 * SQL on the ledger's tables, since delivery sits below fees (ADR 040): the WhatsApp worker checks it
 * before sending, and the send list leaves such a reminder out.
 */
export function feeReminderPaidSql(message: string): string {
  return `EXISTS (SELECT 1 FROM fee_reminders r WHERE r.message_id = ${message}
    AND (SELECT coalesce(sum(e.amount_paise), 0) FROM ledger_transactions t
           JOIN ledger_entries e ON e.transaction_id = t.id AND e.account = 'receivable'
          WHERE t.family_id = r.family_id) <= 0)`;
}

export const FEE_REMINDER_PAID_REASON = 'Paid before the reminder went out.';

/** Which of these messages are fee reminders to a family that owes nothing now. */
export async function paidFeeReminders(tx: Queryable, messageIds: readonly number[]): Promise<Set<number>> {
  if (messageIds.length === 0) return new Set();
  const rows = await tx.query<{ id: number }>(
    `SELECT m.id FROM unnest($1::int[]) AS m(id) WHERE ${feeReminderPaidSql('m.id')}`,
    [messageIds],
  );
  return new Set(rows.map((row) => Number(row.id)));
}
