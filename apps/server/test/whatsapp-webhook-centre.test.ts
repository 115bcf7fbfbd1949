/**
 * The WhatsApp webhook, issue 26 items 5 and 6: callbacks are applied only for the centre's own number
 * and business account, and no item of a callback breaks the others.
 */
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { type Caller, callerOf } from './helpers/client';
import { checkIntegrity } from './helpers/integrity';
import { uniquePhone } from './helpers/test-app';
import { buttonFrom, callbackOf, postCallback, statusOf, textFrom, WHATSAPP_TEST } from './helpers/whatsapp';
import { api, attemptRow, sentOnWhatsapp, webhookApp } from './helpers/whatsapp-webhook';

webhookApp();
// As the other webhook tests do (whatsapp-webhook.test.ts, "afterwards"), these leave the database consistent.
afterAll(async () => {
  expect(await checkIntegrity(api.db)).toEqual([]);
});

let logged: FastifyInstance;
let webhook: Caller;
const logLines: Record<string, unknown>[] = [];
beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
      done();
    },
  });
  logged = await buildApp(api.ctx, { logger: { level: 'info', stream } });
  await logged.ready();
  webhook = callerOf(logged);
});
afterAll(async () => {
  await logged?.close();
});

const callbackLines = () => logLines.filter((line) => line.event === 'whatsapp-callback');

interface ChangeOf {
  /** `metadata.phone_number_id`; the centre's when not given, no metadata at all when null. */
  phoneNumberId?: unknown;
  statuses?: unknown[];
  messages?: unknown[];
  contacts?: unknown[];
}

/** A callback of several entries (`id` the business account; the centre's when not given, none when null). */
function callbackOfEntries(entries: { id?: unknown; changes: ChangeOf[] }[]): string {
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: entries.map((entry) => ({
      ...(entry.id === null ? {} : { id: entry.id ?? WHATSAPP_TEST.businessAccountId }),
      changes: entry.changes.map(({ phoneNumberId, ...value }) => ({
        field: 'messages',
        value: {
          messaging_product: 'whatsapp',
          ...(phoneNumberId === null
            ? {}
            : {
                metadata: {
                  display_phone_number: '15550001111',
                  phone_number_id: phoneNumberId ?? WHATSAPP_TEST.phoneNumberId,
                },
              }),
          ...value,
        },
      })),
    })),
  });
}

async function inboundOf(phone: string) {
  return api.db.query<{ provider_message_id: string; kind: string; body: string; reply: string | null }>(
    'SELECT provider_message_id, kind, body, reply FROM whatsapp_inbound WHERE phone = $1 ORDER BY id',
    [phone],
  );
}

async function optedIn(phone: string): Promise<boolean[]> {
  const rows = await api.db.query<{ opt_in: boolean }>(
    'SELECT parent_whatsapp_opt_in AS opt_in FROM students WHERE parent_phone = $1 ORDER BY id',
    [phone],
  );
  return rows.map((row) => row.opt_in);
}

async function earlyStatuses(wamid: string) {
  return api.db.query('SELECT status FROM whatsapp_early_statuses WHERE provider_message_id = $1', [wamid]);
}

describe("callbacks are applied only when they are for the centre's own number and business account", () => {
  beforeEach(() => {
    logLines.length = 0;
  });

  it("applies the change for the centre's phone number id and skips, with a log line, another number's and one without metadata", async () => {
    const ours = uniquePhone();
    const theirs = uniquePhone();
    await api.student({ parent_phone: theirs, parent_whatsapp_opt_in: true });
    const mine = await sentOnWhatsapp(ours);
    const forged = await sentOnWhatsapp(theirs);
    const body = callbackOfEntries([
      {
        changes: [
          {
            phoneNumberId: '5550009999',
            statuses: [statusOf(forged.wamid, 'read', theirs), statusOf('wamid.elsewhere1', 'delivered', theirs)],
            messages: [textFrom(theirs, 'STOP'), textFrom(theirs, 'Secret question from elsewhere')],
          },
          {
            phoneNumberId: null,
            statuses: [statusOf(forged.wamid, 'failed', theirs)],
            messages: [textFrom(theirs, 'No metadata')],
          },
          { statuses: [statusOf(mine.wamid, 'delivered', ours)], messages: [textFrom(ours, 'Is there class today?')] },
        ],
      },
    ]);
    expect((await postCallback(webhook, body)).statusCode).toBe(200);

    expect((await attemptRow(mine.messageId))?.status).toBe('delivered');
    expect((await inboundOf(ours)).map((row) => row.body)).toEqual(['Is there class today?']);
    // Nothing of the other numbers' changes: no status moved or kept for later, nothing stored, no opt-out.
    expect((await attemptRow(forged.messageId))?.status).toBe('sent');
    expect(await earlyStatuses('wamid.elsewhere1')).toEqual([]);
    expect(await inboundOf(theirs)).toEqual([]);
    expect(await optedIn(theirs)).toEqual([true]);

    const skipped = callbackLines().filter((line) => line.outcome === 'not-ours');
    expect(skipped).toEqual([
      expect.objectContaining({ level: 40, phone_number_id: '5550009999', statuses: 2, messages: 2 }),
      expect.objectContaining({ level: 40, phone_number_id: null, statuses: 1, messages: 1 }),
    ]);
    for (const line of skipped) expect(line).toMatchObject({ entry_id: WHATSAPP_TEST.businessAccountId });
    const everything = logLines.map((line) => JSON.stringify(line)).join('\n');
    expect(everything).not.toContain('Secret question');
    expect(everything).not.toContain('Is there class today?');
  });

  it('skips every change of an entry for another business account, or of one without its id, with a log line', async () => {
    const ours = uniquePhone();
    const theirs = uniquePhone();
    await api.student({ parent_phone: theirs, parent_whatsapp_opt_in: true });
    const mine = await sentOnWhatsapp(ours);
    const forged = await sentOnWhatsapp(theirs);
    const body = callbackOfEntries([
      {
        // Another business account naming the centre's phone number id is still not the centre's.
        id: '9988776655',
        changes: [
          { statuses: [statusOf(forged.wamid, 'failed', theirs, { error: { code: 131026, title: 'Forged' } })] },
          { messages: [textFrom(theirs, 'STOP')] },
        ],
      },
      { id: null, changes: [{ messages: [textFrom(theirs, 'From no account')] }] },
      { changes: [{ statuses: [statusOf(mine.wamid, 'read', ours)], messages: [textFrom(ours, 'Thank you')] }] },
    ]);
    expect((await postCallback(webhook, body)).statusCode).toBe(200);

    expect((await attemptRow(mine.messageId))?.status).toBe('read');
    expect((await inboundOf(ours)).map((row) => row.body)).toEqual(['Thank you']);
    expect(await attemptRow(forged.messageId)).toMatchObject({ status: 'sent', failure_reason: null });
    expect(await inboundOf(theirs)).toEqual([]);
    expect(await optedIn(theirs)).toEqual([true]);

    expect(callbackLines().filter((line) => line.outcome === 'not-ours')).toEqual([
      expect.objectContaining({ level: 40, entry_id: '9988776655', statuses: 1, messages: 1 }),
      expect.objectContaining({ level: 40, entry_id: null, statuses: 0, messages: 1 }),
    ]);
  });
});

describe('U+0000 is taken out of every string of a callback, and one item that fails does not stop the others', () => {
  beforeEach(() => {
    logLines.length = 0;
  });

  const NUL = '\u0000';

  it.each([
    [
      'a text',
      (phone: string) => textFrom(phone, `Is there${NUL} class${NUL}?`),
      { kind: 'text', body: 'Is there class?' },
    ],
    [
      "the message's own id",
      (phone: string) => ({ ...textFrom(phone, 'Hello'), id: `wamid.${NUL}nul-id-${phone.slice(1)}` }),
      { provider_message_id: 'wamid.nul-id-', body: 'Hello' },
    ],
    [
      'the sender',
      (phone: string) => ({ ...textFrom(phone, 'From a sender with a NUL'), from: `${phone.slice(1)}${NUL}` }),
      { body: 'From a sender with a NUL' },
    ],
    [
      "a button's title",
      (phone: string) => ({ ...buttonFrom(phone, 'not-a-reply', `Coming${NUL} late`, 'wamid.none'), type: 'button' }),
      { kind: 'button', body: 'Coming late' },
    ],
    [
      'the type',
      (phone: string) => ({ ...textFrom(phone, 'Typed'), type: `te${NUL}xt` }),
      { kind: 'text', body: 'Typed' },
    ],
  ])('stores an inbound message with a NUL in %s without it, and answers 200', async (_where, message, expected) => {
    const phone = uniquePhone();
    const sibling = textFrom(phone, 'The next message');
    const contacts = [{ profile: { name: `Lak${NUL}shmi` }, wa_id: phone.slice(1) }];
    const response = await postCallback(webhook, callbackOf({ contacts, messages: [message(phone), sibling] }));
    expect(response.statusCode).toBe(200);
    const rows = await inboundOf(phone);
    expect(rows).toHaveLength(2);
    const { provider_message_id: idStart, ...rest } = expected as { provider_message_id?: string };
    expect(rows[0]).toMatchObject(rest);
    if (idStart) expect(rows[0]?.provider_message_id).toBe(`${idStart}${phone.slice(1)}`);
    expect(rows[1]?.body).toBe('The next message');
    expect(JSON.stringify(rows)).not.toContain(NUL);
  });

  it('records a one-tap reply whose button payload, title and context id carry NULs, from a parent whose name does', async () => {
    const phone = uniquePhone();
    const { messageId, wamid } = await sentOnWhatsapp(phone, 'absence_alert');
    const tap = buttonFrom(phone, `reply:${messageId}:si${NUL}ck`, `Si${NUL}ck`, `${wamid}${NUL}`);
    const contacts = [{ profile: { name: `Ri${NUL}ya's mother` }, wa_id: phone.slice(1) }];
    expect((await postCallback(webhook, callbackOf({ contacts, messages: [tap] }))).statusCode).toBe(200);
    const [alert] = await api.db.query<{ reply: string | null }>('SELECT reply FROM messages WHERE id = $1', [
      messageId,
    ]);
    expect(alert?.reply).toBe('sick');
    expect(await inboundOf(phone)).toEqual([expect.objectContaining({ kind: 'button', body: 'Sick', reply: 'sick' })]);
  });

  it('takes a STOP with a NUL in it for a STOP', async () => {
    const phone = uniquePhone();
    await api.student({ parent_phone: phone, parent_whatsapp_opt_in: true });
    expect((await postCallback(webhook, callbackOf({ messages: [textFrom(phone, `ST${NUL}OP`)] }))).statusCode).toBe(
      200,
    );
    expect(await optedIn(phone)).toEqual([false]);
  });

  it('applies a status whose wamid and error title carry NULs, stored without them', async () => {
    const phone = uniquePhone();
    const { messageId, wamid } = await sentOnWhatsapp(phone);
    const failed = statusOf(`${wamid.slice(0, 6)}${NUL}${wamid.slice(6)}`, 'failed', phone, {
      error: { code: 131026, title: `Message${NUL} undeliverable`, message: `Unable${NUL} to deliver` },
    });
    expect((await postCallback(webhook, callbackOf({ statuses: [failed] }))).statusCode).toBe(200);
    expect(await attemptRow(messageId)).toMatchObject({
      status: 'failed',
      error_code: 131026,
      failure_reason: 'Message undeliverable: Unable to deliver',
    });
  });

  it('keeps a status that overtook its send without the NUL in its wamid', async () => {
    const phone = uniquePhone();
    const wamid = `wamid.earlynul${Date.now()}`;
    const early = callbackOf({ statuses: [statusOf(`${wamid}${NUL}`, 'delivered', phone)] });
    expect((await postCallback(webhook, early)).statusCode).toBe(200);
    expect(await earlyStatuses(wamid)).toEqual([{ status: 'delivered' }]);
    await api.db.query('DELETE FROM whatsapp_early_statuses WHERE provider_message_id = $1', [wamid]);
  });

  it('skips an item the database refuses, logs it without the text, answers 200 and applies the others', async () => {
    const phone = uniquePhone();
    const stopping = uniquePhone();
    await api.student({ parent_phone: stopping, parent_whatsapp_opt_in: true });
    const refused = await sentOnWhatsapp(phone);
    const applied = await sentOnWhatsapp(phone);
    const unknownWamid = `wamid.refusedearly${Date.now()}`;
    // An error code beyond the integer column, a timestamp in the year 33658: the database refuses both.
    const tooBigCode = statusOf(refused.wamid, 'failed', phone, { error: { code: 1e12, title: 'Undeliverable' } });
    const tooBigEarly = statusOf(unknownWamid, 'failed', phone, { error: { code: 1e12, title: 'Undeliverable' } });
    const farFuture = { ...textFrom(phone, 'A question from the far future'), timestamp: String(1e12) };
    const malformed = { ...textFrom(phone, 'A question from nowhere'), from: 'not-a-phone' };
    const body = callbackOfEntries([
      {
        changes: [
          {
            statuses: [tooBigCode, tooBigEarly, statusOf(applied.wamid, 'delivered', phone)],
            messages: [farFuture, malformed, textFrom(phone, 'An ordinary question'), textFrom(stopping, 'STOP')],
          },
        ],
      },
    ]);
    expect((await postCallback(webhook, body)).statusCode).toBe(200);

    expect(await attemptRow(refused.messageId)).toMatchObject({
      status: 'sent',
      error_code: null,
      failure_reason: null,
    });
    expect(await earlyStatuses(unknownWamid)).toEqual([]);
    expect((await attemptRow(applied.messageId))?.status).toBe('delivered');
    expect((await inboundOf(phone)).map((row) => row.body)).toEqual(['An ordinary question']);
    expect(await optedIn(stopping)).toEqual([false]);

    const failed = callbackLines().filter((line) => line.outcome === 'item-failed');
    expect(failed).toEqual([
      expect.objectContaining({ level: 50, item: 'status', wamid: refused.wamid, error: expect.any(String) }),
      expect.objectContaining({ level: 50, item: 'status', wamid: unknownWamid, error: expect.any(String) }),
      expect.objectContaining({ level: 50, item: 'message', wamid: farFuture.id, error: expect.any(String) }),
    ]);
    expect(callbackLines().filter((line) => line.outcome === 'not-understood')).toEqual([
      expect.objectContaining({ level: 40, item: 'message', wamid: malformed.id, problems: ['from: invalid_format'] }),
    ]);
    const everything = logLines.map((line) => JSON.stringify(line)).join('\n');
    expect(everything).not.toContain('from nowhere');
    expect(everything).not.toContain('far future');
    expect(everything).not.toContain('ordinary question');
    expect(logLines.find((line) => line.msg === 'WhatsApp callback processed')).toMatchObject({
      whatsapp: expect.objectContaining({
        statuses: 1,
        unknownStatuses: 0,
        inbound: 2,
        optOuts: 1,
        notUnderstood: 1,
        failed: 3,
      }),
    });
  });

  it('leaves nothing of a message whose later step fails: its text is not kept without its effect', async () => {
    const phone = uniquePhone();
    await api.student({ parent_phone: phone, parent_whatsapp_opt_in: true });
    // The opt-out's activity line is refused (a trigger, for this test only): the STOP fails after the
    // message itself was inserted and the family's consent changed.
    await api.db.exec(`
      CREATE FUNCTION refuse_opt_out_activity() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.action = 'messages.whatsapp_opt_out' THEN RAISE EXCEPTION 'refused for the test'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER refuse_opt_out_activity BEFORE INSERT ON activities
        FOR EACH ROW EXECUTE FUNCTION refuse_opt_out_activity();`);
    try {
      const stop = textFrom(phone, 'STOP');
      expect(
        (await postCallback(webhook, callbackOf({ messages: [stop, textFrom(phone, 'Afterwards')] }))).statusCode,
      ).toBe(200);
      // The STOP is not half applied: neither stored nor opting out; the next message is stored.
      expect((await inboundOf(phone)).map((row) => row.body)).toEqual(['Afterwards']);
      expect(await optedIn(phone)).toEqual([true]);
      expect(callbackLines().filter((line) => line.outcome === 'item-failed')).toEqual([
        expect.objectContaining({ item: 'message', wamid: stop.id }),
      ]);
    } finally {
      await api.db.exec('DROP TRIGGER refuse_opt_out_activity ON activities; DROP FUNCTION refuse_opt_out_activity();');
    }
  });

  it('answers 200 to a callback nested far deeper than any stack, and applies its message', async () => {
    const phone = uniquePhone();
    const depth = 200_000;
    const deep = `${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}`;
    const body = callbackOf({ messages: [textFrom(phone, 'Under a deep contact')] }).replace(
      '"messaging_product":"whatsapp"',
      `"messaging_product":"whatsapp","contacts":${deep}`,
    );
    expect((await postCallback(webhook, body)).statusCode).toBe(200);
    expect((await inboundOf(phone)).map((row) => row.body)).toEqual(['Under a deep contact']);
  });
});
