import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMessagingSettings } from '../src/modules/delivery/settings';
import { expectRefusal } from './helpers/answers';
import { type TestClient, testClient } from './helpers/client';
import { uniquePhone } from './helpers/test-app';
import { whatsappConfig } from './helpers/whatsapp';

const DEFAULTS = {
  centre_name: 'TuitionDesk',
  whatsapp_fallback_minutes: 10,
  not_reached_minutes: 30,
  whatsapp_notice_template: 'tuitiondesk_notice',
};
const KEYS = Object.keys(DEFAULTS);

async function storedSettings(api: TestClient): Promise<Record<string, string>> {
  const rows = await api.db.query<{ key: string; value: string }>(
    'SELECT key, value FROM settings WHERE key = ANY($1::text[])',
    [KEYS],
  );
  return Object.fromEntries(rows.map((row) => [row.key, row.value]));
}

async function settingsActivities(api: TestClient): Promise<string[]> {
  const rows = await api.db.query<{ description: string }>(
    "SELECT description FROM activities WHERE action = 'settings.updated' AND description LIKE '%message settings%' ORDER BY id",
  );
  return rows.map((row) => row.description);
}

describe('message settings, WhatsApp off', () => {
  let api: TestClient;
  beforeAll(async () => {
    api = await testClient();
  });
  afterAll(async () => {
    await api?.close();
  });

  it('answers the defaults to staff, with WhatsApp off and nothing used', async () => {
    const answer = await api.as('teacher').get('/api/v1/settings/messaging');
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ ...DEFAULTS, whatsapp: { configured: false, daily_limit: 250, used_today: 0 } });
    expect(await readMessagingSettings(api.db)).toEqual(DEFAULTS);
  });

  it('lets only an admin change them', async () => {
    const update = { ...DEFAULTS, centre_name: 'Someone Else' };
    expectRefusal(
      await api.as('teacher').put('/api/v1/settings/messaging', update),
      403,
      'You do not have permission to do this',
    );
    expect((await api.anonymous().put('/api/v1/settings/messaging', update)).statusCode).toBe(401);
    expect(await storedSettings(api)).toMatchObject({ centre_name: 'TuitionDesk' });
  });

  it('stores a change, says what changed in the activity feed, and records nothing for a save of the same values', async () => {
    const update = {
      centre_name: '  Bright Minds Tuition ',
      whatsapp_fallback_minutes: 0,
      not_reached_minutes: 45,
      whatsapp_notice_template: 'bright_minds_notice',
    };
    const changed = await api.as('admin').put('/api/v1/settings/messaging', update);
    expect(changed.statusCode).toBe(200);
    const expected = { ...update, centre_name: 'Bright Minds Tuition' };
    expect(changed.json()).toEqual({ ...expected, whatsapp: { configured: false, daily_limit: 250, used_today: 0 } });
    expect((await api.as('teacher').get('/api/v1/settings/messaging')).json()).toMatchObject(expected);
    expect(await storedSettings(api)).toEqual({
      centre_name: 'Bright Minds Tuition',
      whatsapp_fallback_minutes: '0',
      not_reached_minutes: '45',
      whatsapp_notice_template: 'bright_minds_notice',
    });
    expect(await settingsActivities(api)).toEqual([
      'Administrator changed the message settings: centre name "Bright Minds Tuition", WhatsApp at once when the app has not confirmed, call list after 45 minutes, WhatsApp notice template bright_minds_notice',
    ]);

    expect((await api.as('admin').put('/api/v1/settings/messaging', update)).statusCode).toBe(200);
    expect(await settingsActivities(api)).toHaveLength(1);
  });

  it('keeps the notice template when a change leaves it out', async () => {
    const before = (await api.as('admin').get('/api/v1/settings/messaging')).json();
    const changed = await api.as('admin').put('/api/v1/settings/messaging', {
      centre_name: before.centre_name,
      whatsapp_fallback_minutes: 1,
      not_reached_minutes: before.not_reached_minutes,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      whatsapp_fallback_minutes: 1,
      whatsapp_notice_template: before.whatsapp_notice_template,
    });
    expect((await settingsActivities(api)).at(-1)).toBe(
      'Administrator changed the message settings: WhatsApp after 1 minute when the app has not confirmed',
    );
  });

  it.each([
    [{ whatsapp_fallback_minutes: -1 }, 'whatsapp_fallback_minutes: must be 0 (at once) or more'],
    [{ whatsapp_fallback_minutes: 1441 }, 'whatsapp_fallback_minutes: must be at most 1440 (a day)'],
    [{ whatsapp_fallback_minutes: '10' }, 'whatsapp_fallback_minutes: must be a whole number of minutes'],
    [{ not_reached_minutes: 0 }, 'not_reached_minutes: must be at least 1'],
    [{ not_reached_minutes: 1.5 }, 'not_reached_minutes: must be a whole number of minutes'],
    [{ not_reached_minutes: null }, 'not_reached_minutes: must be a whole number of minutes'],
    [{ centre_name: '  ' }, 'centre_name: must not be empty'],
    [{ centre_name: undefined }, 'centre_name: is required'],
    [{ centre_name: 'x'.repeat(101) }, 'centre_name: must be at most 100 characters'],
    [
      { whatsapp_notice_template: 'Notice Template' },
      'whatsapp_notice_template: must be the approved template name: lowercase letters, digits and _',
    ],
    [
      { whatsapp_notice_template: '' },
      'whatsapp_notice_template: must be the approved template name: lowercase letters, digits and _',
    ],
    [
      { whatsapp_notice_template: 42 },
      'whatsapp_notice_template: must be the approved template name: lowercase letters, digits and _',
    ],
  ])('refuses %o with 422 and changes nothing', async (change, detail) => {
    const before = await storedSettings(api);
    const activities = (await settingsActivities(api)).length;
    const body = { ...DEFAULTS, centre_name: 'Changed', ...change };
    expectRefusal(await api.as('admin').put('/api/v1/settings/messaging', body), 422, detail);
    expect(await storedSettings(api)).toEqual(before);
    expect(await settingsActivities(api)).toHaveLength(activities);
  });

  it('reads values edited by hand into nonsense as their defaults, and a save replaces them', async () => {
    const edit = (key: string, value: string) =>
      api.db.query('UPDATE settings SET value = $2 WHERE key = $1', [key, value]);
    for (const [fallback, notReached, template, name] of [
      ['abc', '-5', 'Not A Template', '   '],
      ['', '0', '', ''],
      ['1e1', '1441', 'bad-name', ' '],
      ['2.5', '99999', 'ünïcode', '\t'],
    ] as const) {
      await edit('whatsapp_fallback_minutes', fallback);
      await edit('not_reached_minutes', notReached);
      await edit('whatsapp_notice_template', template);
      await edit('centre_name', name);
      expect(await readMessagingSettings(api.db)).toEqual(DEFAULTS);
      expect((await api.as('teacher').get('/api/v1/settings/messaging')).json()).toMatchObject(DEFAULTS);
    }
    await api.db.query('DELETE FROM settings WHERE key = ANY($1::text[])', [KEYS]);
    expect(await readMessagingSettings(api.db)).toEqual(DEFAULTS);

    expect((await api.as('admin').put('/api/v1/settings/messaging', DEFAULTS)).statusCode).toBe(200);
    expect(await storedSettings(api)).toEqual({
      centre_name: 'TuitionDesk',
      whatsapp_fallback_minutes: '10',
      not_reached_minutes: '30',
      whatsapp_notice_template: 'tuitiondesk_notice',
    });
  });

  it('applies two changes at once one after the other: the settings are one of them, never a mix', async () => {
    const bodies = [
      {
        centre_name: 'First Centre',
        whatsapp_fallback_minutes: 5,
        not_reached_minutes: 20,
        whatsapp_notice_template: 'first',
      },
      {
        centre_name: 'Second Centre',
        whatsapp_fallback_minutes: 7,
        not_reached_minutes: 25,
        whatsapp_notice_template: 'second',
      },
    ];
    const activities = (await settingsActivities(api)).length;
    const answers = await Promise.all(bodies.map((body) => api.as('admin').put('/api/v1/settings/messaging', body)));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    const now = await readMessagingSettings(api.db);
    expect(bodies).toContainEqual(now);
    expect(await settingsActivities(api)).toHaveLength(activities + 2);
  });
});

describe('message settings, WhatsApp on', () => {
  let api: TestClient;
  beforeAll(async () => {
    // Nothing is queued, so nothing is ever sent to this address.
    api = await testClient({ config: { whatsapp: whatsappConfig('http://127.0.0.1:9', { dailyLimit: 40 }) } });
  });
  afterAll(async () => {
    await api?.close();
  });

  /** A message to `phone` with a WhatsApp attempt counted against the daily limit at `hoursAgo`. */
  async function conversation(phone: string, hoursAgo: number | null): Promise<void> {
    const [message] = await api.db.query<{ id: number }>(
      `INSERT INTO messages (subject, message, recipient, message_type, kind, delivery_status)
       VALUES ('Holiday', 'Closed', $1, 'WHATSAPP', 'notice', 'sent') RETURNING id`,
      [phone],
    );
    await api.db.query(
      `INSERT INTO message_attempts (message_id, channel, status, sent_at, conversation_at)
       VALUES ($1, 'whatsapp', 'sent', now(), CASE WHEN $2::int IS NULL THEN NULL ELSE now() - make_interval(hours => $2::int) END)`,
      [message?.id, hoursAgo],
    );
  }

  it('says WhatsApp is on, with its daily limit and the families sent a template in the last 24 hours', async () => {
    expect((await api.as('teacher').get('/api/v1/settings/messaging')).json().whatsapp).toEqual({
      configured: true,
      daily_limit: 40,
      used_today: 0,
    });
    const twice = uniquePhone();
    await conversation(twice, 1);
    await conversation(twice, 2);
    await conversation(uniquePhone(), 23);
    await conversation(uniquePhone(), 25);
    await conversation(uniquePhone(), null);
    expect((await api.as('teacher').get('/api/v1/settings/messaging')).json().whatsapp).toEqual({
      configured: true,
      daily_limit: 40,
      used_today: 2,
    });
    const saved = await api.as('admin').put('/api/v1/settings/messaging', DEFAULTS);
    expect(saved.json().whatsapp).toEqual({ configured: true, daily_limit: 40, used_today: 2 });
  });
});
