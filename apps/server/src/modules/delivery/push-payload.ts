import { type PushPayload, registerUrl, reminderText, type StaffPushPayload } from '@tuitiondesk/contract';

/**
 * Push services accept at most 4096 bytes of encrypted body (RFC 8030 section 7.2). aes128gcm adds an
 * 86-byte header (salt, record size, the sender's 65-byte key) and, for the single record, a padding
 * delimiter and a 16-byte tag: 4096 - 86 - 17 leaves 3993 bytes for the JSON.
 */
export const MAX_PUSH_PLAINTEXT_BYTES = 4096 - 86 - 1 - 16;

const ELLIPSIS = '…';

/**
 * The JSON the service worker receives. A long body is cut (at a character boundary, with an
 * ellipsis) so the whole payload fits one push; the app opens the full message from the inbox.
 */
export function encodePushPayload(payload: PushPayload, maxBytes = MAX_PUSH_PLAINTEXT_BYTES): string {
  const full = JSON.stringify(payload);
  if (Buffer.byteLength(full) <= maxBytes) return full;
  const fits = (body: string) => Buffer.byteLength(JSON.stringify({ ...payload, body })) <= maxBytes;
  const characters = Array.from(payload.body);
  // The longest prefix that fits, found by bisection (escaping makes the byte count non-linear).
  let low = 0;
  let high = characters.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(characters.slice(0, middle).join('') + ELLIPSIS)) low = middle;
    else high = middle - 1;
  }
  let body = characters.slice(0, low).join('') + ELLIPSIS;
  if (!fits(body)) body = '';
  let title = payload.title;
  // A subject is at most a few hundred characters; cut it too if the rest still does not fit.
  while (Buffer.byteLength(JSON.stringify({ ...payload, title, body })) > maxBytes && title.length > 0) {
    title = title.slice(0, Math.max(0, title.length - 64));
  }
  return JSON.stringify({ ...payload, title, body });
}

/** A marking reminder as the console's service worker shows it; a tap opens the class's register. */
export function encodeStaffPushPayload(reminder: { className: string; classLabel: string; date: string }): string {
  const payload: StaffPushPayload = {
    kind: 'marking_reminder',
    title: 'Attendance not marked',
    body: `${reminderText(reminder.classLabel)}. Tap to open the register.`,
    url: registerUrl(reminder.className, reminder.date),
    tag: `marking-reminder-${reminder.className}-${reminder.date}`,
  };
  return JSON.stringify(payload);
}
