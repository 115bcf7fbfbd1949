/**
 * Families reached by a chosen channel, for the tests of reach (ADR 044) and of the grouped history
 * (ADR 049): a device with notifications, a signed-in inbox, WhatsApp, or none.
 */
import type { TestClient } from './client';
import { uniquePhone } from './test-app';

export type Channel = 'device' | 'inbox' | 'whatsapp' | 'none';

/** A family in `className`, reached by `channel`: a device with notifications, a signed-in inbox, WhatsApp, none. */
export async function family(client: TestClient, className: string, channel: Channel, name = 'Child') {
  const phone = uniquePhone();
  const student = await client.student({
    class_name: className,
    full_name: `${name} ${phone.slice(-4)}`,
    parent_phone: phone,
    parent_name: `Parent ${phone.slice(-4)}`,
    parent_whatsapp_opt_in: channel === 'whatsapp',
  });
  if (channel === 'device' || channel === 'inbox') {
    await client.db.query(
      "INSERT INTO parent_access (phone, code_hash, issued_by, last_sign_in_at) VALUES ($1, 'x', 'test', now())",
      [phone],
    );
  }
  if (channel === 'device') {
    await client.db.query(`INSERT INTO push_subscriptions (phone, endpoint, p256dh, auth) VALUES ($1, $2, 'k', 'a')`, [
      phone,
      `https://push.example.com/${encodeURIComponent(phone)}/${Math.random()}`,
    ]);
  }
  return { phone, student };
}

/** Sends a notice to `recipients` as the admin ("Closed on Friday.") and answers the response. */
export function sendTo(client: TestClient, recipients: string, subject = 'Holiday') {
  return client
    .as('admin')
    .post('/api/v1/messages/send-to-parents', { subject, message: 'Closed on Friday.', recipients });
}
