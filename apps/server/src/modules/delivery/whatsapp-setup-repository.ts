import type { Queryable } from '../../db/database';
import { readSettings, writeSettings } from '../../db/settings';

/**
 * The console's WhatsApp connection in `settings`: the ids and when it was made, never a secret (those
 * are in the key file, ADR 045). The settings table's audit trigger records each change.
 */
const KEYS = {
  phoneNumberId: 'whatsapp_phone_number_id',
  businessAccountId: 'whatsapp_business_account_id',
  connectedAt: 'whatsapp_connected_at',
  dailyLimit: 'whatsapp_daily_limit',
} as const;
const ALL_KEYS = Object.values(KEYS);

export interface ConsoleWhatsapp {
  phoneNumberId: string;
  businessAccountId: string;
  connectedAt: string | null;
  /** From the number's messaging tier when it was connected; null for unlimited or unknown. */
  dailyLimit: number | null;
}

/** The stored connection, when both ids are there. `lock` holds the rows until the transaction ends. */
export async function readConsoleWhatsapp(db: Queryable, lock?: 'update'): Promise<ConsoleWhatsapp | undefined> {
  const values = await readSettings(db, ALL_KEYS, lock);
  const phoneNumberId = values.get(KEYS.phoneNumberId);
  const businessAccountId = values.get(KEYS.businessAccountId);
  if (!phoneNumberId || !businessAccountId) return undefined;
  const limit = Number(values.get(KEYS.dailyLimit));
  return {
    phoneNumberId,
    businessAccountId,
    connectedAt: values.get(KEYS.connectedAt) ?? null,
    dailyLimit: Number.isInteger(limit) && limit > 0 ? limit : null,
  };
}

export async function writeConsoleWhatsapp(tx: Queryable, connection: ConsoleWhatsapp): Promise<void> {
  await writeSettings(tx, {
    [KEYS.phoneNumberId]: connection.phoneNumberId,
    [KEYS.businessAccountId]: connection.businessAccountId,
    [KEYS.connectedAt]: connection.connectedAt ?? new Date().toISOString(),
    [KEYS.dailyLimit]: connection.dailyLimit === null ? '' : String(connection.dailyLimit),
  });
}

/** Removes the stored connection; answers whether there was one. */
export async function deleteConsoleWhatsapp(tx: Queryable): Promise<boolean> {
  const rows = await tx.query<{ key: string }>('DELETE FROM settings WHERE key = ANY($1::text[]) RETURNING key', [
    ALL_KEYS,
  ]);
  return rows.some((row) => row.key === KEYS.phoneNumberId);
}

/**
 * When Meta last reached the webhook, as the database saw it (a status applied or a parent's message
 * stored): the answer after a restart, before this instance has taken a callback itself.
 */
export async function lastCallbackInDatabase(db: Queryable): Promise<Date | null> {
  const rows = await db.query<{ at: Date | string | null }>(
    `SELECT GREATEST(
       (SELECT max(stored_at) FROM whatsapp_inbound),
       (SELECT max(received_at) FROM whatsapp_early_statuses),
       (SELECT max(GREATEST(delivered_at, read_at)) FROM message_attempts WHERE channel = 'whatsapp')
     ) AS at`,
  );
  const at = rows[0]?.at;
  return at ? new Date(at) : null;
}
