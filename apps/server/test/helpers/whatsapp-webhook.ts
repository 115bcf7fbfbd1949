/**
 * What the WhatsApp webhook test files share: an app with WhatsApp configured (nothing is sent: the
 * Cloud API address only has to exist in the settings), and messages that went out on WhatsApp.
 */
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../../src/db/database';
import { storeProviderMessageId } from '../../src/modules/delivery/whatsapp-repository';
import { type TestClient, testClient } from './client';
import { whatsappConfig } from './whatsapp';

export let api: TestClient;

/** Opens the app before the file's tests and closes it after them. */
export function webhookApp(): void {
  beforeAll(async () => {
    // Nothing is sent in this file: the Cloud API address only has to exist in the settings.
    api = await testClient({ config: { whatsapp: whatsappConfig('http://127.0.0.1:9/v21.0') } });
  });
  afterAll(async () => {
    await api?.close();
  });
}

let wamidCounter = 0;
/** A message to `phone` that went out on WhatsApp as a template and was accepted (status sent). */
export async function sentOnWhatsapp(phone: string, kind = 'notice'): Promise<{ messageId: number; wamid: string }> {
  const [message] = await api.db.query<{ id: number }>(
    `INSERT INTO messages (message_type, kind, subject, message, recipient, sent_by, delivery_status)
     VALUES ('WHATSAPP', $2, 'Notice', 'Body', $1, 'Admin', 'queued') RETURNING id`,
    [phone, kind],
  );
  const messageId = (message as { id: number }).id;
  return { messageId, wamid: await templateAccepted(api.db, messageId, 'tuitiondesk_notice') };
}

/** Message `messageId`'s WhatsApp attempt with `template`, accepted by the Cloud API: answers its wamid. */
export async function templateAccepted(db: Database, messageId: number, template: string): Promise<string> {
  wamidCounter += 1;
  const wamid = `wamid.HBgM${Date.now()}${wamidCounter}`;
  await db.query(
    `INSERT INTO message_attempts (message_id, channel, whatsapp_template, whatsapp_language, whatsapp_parameters, tries)
     VALUES ($1, 'whatsapp', $2, 'en', '["a","b","c"]', 1)`,
    [messageId, template],
  );
  await storeProviderMessageId(db, { messageId, channel: 'whatsapp' }, wamid);
  return wamid;
}

export async function messageRow(id: number) {
  const [row] = await api.db.query<{
    delivery_status: string;
    message_type: string;
    failure_reason: string | null;
    delivered_at: string | null;
  }>('SELECT delivery_status, message_type, failure_reason, delivered_at FROM messages WHERE id = $1', [id]);
  return row;
}

export async function attemptRow(messageId: number) {
  const [row] = await api.db.query<{
    status: string;
    error_code: number | null;
    failure_reason: string | null;
    delivered_at: string | null;
    read_at: string | null;
  }>(
    `SELECT status, error_code, failure_reason, delivered_at, read_at FROM message_attempts
      WHERE message_id = $1 AND channel = 'whatsapp'`,
    [messageId],
  );
  return row;
}
