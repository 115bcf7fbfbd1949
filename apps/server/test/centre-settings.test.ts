import { describe, expect, it } from 'vitest';
import { readMessagingSettings } from '../src/modules/delivery';
import { testClientForBlock } from './helpers/client';

/** A real 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0rest of it')]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x1a, 0, 0, 0]), Buffer.from('WEBPVP8 rest of it')]);

const base64 = (bytes: Buffer | string) => Buffer.from(bytes).toString('base64');

describe("the centre's settings: name and logo", () => {
  const api = testClientForBlock();

  it("answers the defaults: the spec's name, no logo; the public answer has the name, the logo and the zone only", async () => {
    const centre = (await api().as('teacher').get('/api/v1/settings/centre')).json();
    expect(centre).toMatchObject({ name: 'TuitionDesk', logo_url: null, needs_set_up: true });
    const publicAnswer = await api().anonymous().get('/api/v1/centre');
    expect(publicAnswer.statusCode).toBe(200);
    expect(publicAnswer.json()).toEqual({ name: 'TuitionDesk', logo_url: null, time_zone: centre.time_zone });
    expect((await api().anonymous().get('/api/v1/settings/centre')).statusCode).toBe(401);
    expect((await api().anonymous().get('/api/v1/centre/logo')).statusCode).toBe(404);
  });

  it('renames the centre: the public answer, the message settings and the feed say the new name; the same name again records nothing', async () => {
    const admin = api().as('admin');
    const renamed = await admin.put('/api/v1/settings/centre', { name: '  Bright Minds Tuition ' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().name).toBe('Bright Minds Tuition');
    expect((await api().anonymous().get('/api/v1/centre')).json().name).toBe('Bright Minds Tuition');
    // Every reader of the name (messages, the WhatsApp templates' {centre_name}) reads the same setting.
    expect((await readMessagingSettings(api().db)).centre_name).toBe('Bright Minds Tuition');
    expect((await admin.get('/api/v1/settings/messaging')).json().centre_name).toBe('Bright Minds Tuition');

    const count = async () =>
      (
        await api().db.query<{ count: number }>(
          "SELECT count(*)::int AS count FROM activities WHERE description LIKE '%renamed the centre%'",
        )
      )[0]?.count;
    expect(await count()).toBe(1);
    await admin.put('/api/v1/settings/centre', { name: 'Bright Minds Tuition' });
    expect(await count()).toBe(1);
    const audit = await api().db.query<{ after: { value: string } }>(
      "SELECT after FROM audit_log WHERE entity = 'settings' AND record_id = 'centre_name' ORDER BY id",
    );
    expect(audit.at(-1)?.after.value).toBe('Bright Minds Tuition');

    for (const name of ['', '   ', 'x'.repeat(101)]) {
      const refused = await admin.put('/api/v1/settings/centre', { name });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().detail).toMatch(/^name: /);
    }
    expect((await admin.put('/api/v1/settings/centre', { colour: 'red' })).statusCode).toBe(422);
    expect((await api().as('teacher').put('/api/v1/settings/centre', { name: 'Mine' })).statusCode).toBe(403);
    expect((await api().anonymous().get('/api/v1/centre')).json().name).toBe('Bright Minds Tuition');
  });

  it('takes a PNG, JPEG or WebP logo, serves it publicly with its type, and the feed and audit log say so', async () => {
    const admin = api().as('admin');
    for (const [bytes, type] of [
      [JPEG, 'image/jpeg'],
      [WEBP, 'image/webp'],
      [PNG, 'image/png'],
    ] as const) {
      const uploaded = await admin.put('/api/v1/settings/centre/logo', { image_base64: base64(bytes) });
      expect(uploaded.statusCode).toBe(200);
      const url = uploaded.json().logo_url as string;
      expect(url).toMatch(/^\/api\/v1\/centre\/logo\?v=[0-9a-f]{16}$/);
      expect((await api().anonymous().get('/api/v1/centre')).json().logo_url).toBe(url);
      const served = await api().anonymous().get(url);
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe(type);
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.rawPayload.equals(bytes)).toBe(true);
      const again = await api()
        .anonymous()
        .get(url, { headers: { 'if-none-match': String(served.headers.etag) } });
      expect(again.statusCode).toBe(304);
    }
    // A data: URL as a browser's FileReader gives it is taken too.
    const dataUrl = await admin.put('/api/v1/settings/centre/logo', {
      image_base64: `data:image/png;base64,${base64(PNG)}`,
    });
    expect(dataUrl.statusCode).toBe(200);
    const logged = await api().db.query<{ after: Record<string, unknown> }>(
      "SELECT after FROM audit_log WHERE entity = 'centre_logo' ORDER BY id",
    );
    expect(logged.length).toBe(3);
    expect(logged.every((row) => !('image_base64' in row.after))).toBe(true);
    expect(logged.at(-1)?.after).toMatchObject({ content_type: 'image/png', size_bytes: PNG.length });

    const removed = await admin.delete('/api/v1/settings/centre/logo');
    expect(removed.json().logo_url).toBeNull();
    expect((await api().anonymous().get('/api/v1/centre/logo')).statusCode).toBe(404);
    const feed = JSON.stringify((await admin.get('/api/v1/activities/recent?limit=10')).json());
    expect(feed).toContain("removed the centre's logo");
    expect(feed).toContain("changed the centre's logo");
  });

  it('refuses hostile and oversized files with 422 saying what to fix, and stores nothing', async () => {
    const admin = api().as('admin');
    const hostile: [string, string, RegExp][] = [
      [
        'an SVG with a script',
        base64('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
        /PNG, JPEG or WebP/,
      ],
      ['a page named logo.png', base64('<html><script>alert(1)</script></html>'), /PNG, JPEG or WebP/],
      ['a GIF', base64('GIF89a\x01\x00\x01\x00'), /PNG, JPEG or WebP/],
      ['a PNG signature and nothing else', base64(PNG.subarray(0, 8)), /PNG, JPEG or WebP/],
      ['a RIFF that is a WAV', base64('RIFF\x1a\x00\x00\x00WAVEfmt '), /PNG, JPEG or WebP/],
      ['not base64', 'this is not a picture!', /base64/],
      [
        'a PNG over 256 KB',
        base64(Buffer.concat([PNG, Buffer.alloc(256 * 1024)])),
        /at most 256 KB; this one is 257 KB/,
      ],
    ];
    for (const [what, image, detail] of hostile) {
      const refused = await admin.put('/api/v1/settings/centre/logo', { image_base64: image });
      expect(refused.statusCode, what).toBe(422);
      expect(refused.json().detail, what).toMatch(/^image_base64: /);
      expect(refused.json().detail, what).toMatch(detail);
    }
    const tooLong = await admin.put('/api/v1/settings/centre/logo', { image_base64: 'A'.repeat(400_000) });
    expect(tooLong.statusCode).toBe(422);
    expect(
      (
        await api()
          .as('teacher')
          .put('/api/v1/settings/centre/logo', { image_base64: base64(PNG) })
      ).statusCode,
    ).toBe(403);
    expect((await api().anonymous().get('/api/v1/centre')).json().logo_url).toBeNull();
    expect(await api().db.query('SELECT id FROM centre_logo')).toEqual([]);
  });

  it('two uploads at once leave one of the two pictures, whole', async () => {
    const admin = api().as('admin');
    const results = await Promise.all([
      admin.put('/api/v1/settings/centre/logo', { image_base64: base64(PNG) }),
      admin.put('/api/v1/settings/centre/logo', { image_base64: base64(JPEG) }),
    ]);
    expect(results.map((result) => result.statusCode)).toEqual([200, 200]);
    const url = (await api().anonymous().get('/api/v1/centre')).json().logo_url;
    const served = await api().anonymous().get(url);
    expect([PNG, JPEG].some((bytes) => served.rawPayload.equals(bytes))).toBe(true);
  });
});
