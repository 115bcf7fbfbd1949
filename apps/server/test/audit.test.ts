/**
 * The audit log (ADR 025): what the rows hold (only what changed, one row per student marked or message
 * sent, sign-ins and failed ones, secrets never), work that is not a request, rows that cannot be
 * changed or removed except by the retention job and the erasure, and admins reading them as a page or
 * as CSV. The walk over every write operation: audit-walk.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { runWithAuditSource } from '../src/db/audit-context';
import { PollingLoop } from '../src/lib/polling-loop';
import { addDays, today } from '../src/lib/time';
import { removeExpiredAuditRows } from '../src/modules/audit/service';
import { waitFor } from './helpers/async';
import {
  ADMIN,
  type AuditRow,
  admin,
  api,
  auditApp,
  auditRowsAfter,
  CONSOLE,
  lastAuditId,
  PARENT_APP,
  teacherCaller,
} from './helpers/audit';
import { enrol } from './helpers/authenticator';
import { freshAddress } from './helpers/client';
import { detailOf } from './helpers/test-app';

auditApp();

describe('what the rows hold', () => {
  it('an update records only the columns that changed; saving the same values records nothing', async () => {
    const student = await api.student({ full_name: 'Same Values', class_name: '7' });
    const from = await lastAuditId();
    const same = await admin.put(`/api/v1/students/${student.id}`, { full_name: 'Same Values', class_name: '7' });
    expect(same.statusCode).toBe(200);
    expect((await auditRowsAfter(from)).filter((row) => row.entity === 'students')).toEqual([]);
    await admin.put(`/api/v1/students/${student.id}`, { class_name: '8' });
    const rows = (await auditRowsAfter(from)).filter((row) => row.entity === 'students');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.before).toEqual({ class_name: '7' });
    expect(rows[0]?.after).toEqual({ class_name: '8' });
  });

  it('marking a class records one row per student, and a message sent leaves one row however its delivery goes', async () => {
    const date = addDays(today(), -2);
    const pupils = await Promise.all(Array.from({ length: 5 }, () => api.student({ class_name: '10' })));
    const from = await lastAuditId();
    const marked = await admin.post('/api/v1/attendance/mark', {
      date,
      records: pupils.map((pupil, index) => ({ student_id: pupil.id, status: index === 0 ? 'absent' : 'present' })),
    });
    expect(marked.statusCode).toBe(200);
    const rows = (await auditRowsAfter(from)).filter((row) => row.entity === 'attendance');
    expect(rows).toHaveLength(5);
    expect(new Set(rows.map((row) => row.after?.student_id))).toEqual(new Set(pupils.map((pupil) => pupil.id)));

    const sent = await admin.post('/api/v1/messages/send-to-parents', {
      subject: 'One row each',
      message: 'x',
      recipients: '10',
    });
    expect(sent.statusCode).toBe(200);
    const [message] = await api.db.query<{ id: number }>(
      "SELECT id FROM messages WHERE subject = 'One row each' ORDER BY id LIMIT 1",
    );
    const beforeChurn = await lastAuditId();
    await api.db.query(
      "UPDATE messages SET delivery_status = 'delivered', delivered_at = now(), pushed_at = now(), read_at = now() WHERE id = $1",
      [message?.id],
    );
    expect(await auditRowsAfter(beforeChurn)).toEqual([]);
  });

  it('a failed sign-in names the account tried and the address, never the password; a throttled one leaves no row', async () => {
    const address = freshAddress();
    const from = await lastAuditId();
    const wrong = await api.anonymous().post('/api/v1/auth/login', undefined, {
      form: { username: 'admin', password: 'not-the-password-123' },
      remoteAddress: address,
      headers: CONSOLE,
    });
    expect(wrong.statusCode).toBe(401);
    const rows = await auditRowsAfter(from);
    expect(rows).toEqual([
      expect.objectContaining({
        entity: 'sign_in',
        action: 'sign_in_failed',
        actor_id: null,
        address,
        way: 'console',
        after: { kind: 'staff', tried: 'admin', reason: 'Incorrect username or password' },
      }),
    ]);
    expect(JSON.stringify(rows)).not.toContain('not-the-password-123');

    const family = await api.family();
    const parentFrom = await lastAuditId();
    const refused = await api
      .anonymous()
      .post(
        '/api/v1/parent/login',
        { phone: family.phone, code: 'AAAA-BBBB' },
        { remoteAddress: freshAddress(), headers: PARENT_APP },
      );
    expect([401, 422]).toContain(refused.statusCode);
    if (refused.statusCode === 401) {
      expect(await auditRowsAfter(parentFrom)).toEqual([
        expect.objectContaining({
          action: 'sign_in_failed',
          way: 'parent app',
          after: expect.objectContaining({ kind: 'parent', tried: family.phone }),
        }),
      ]);
    }
  });

  it('no secret lands in the log: password hashes, two-factor secrets, access code hashes and server keys', async () => {
    const teacher = await teacherCaller();
    await enrol(api.app, teacher.token);
    await api.family();
    const secrets = await api.db.query<{ secret: string }>(
      `SELECT password_hash AS secret FROM users
       UNION ALL SELECT secret_encrypted FROM user_two_factor
       UNION ALL SELECT code_hash FROM two_factor_recovery_codes
       UNION ALL SELECT code_hash FROM parent_access
       UNION ALL SELECT p256dh FROM push_subscriptions
       UNION ALL SELECT auth FROM push_subscriptions`,
    );
    expect(secrets.length).toBeGreaterThan(3);
    const log = JSON.stringify(await api.db.query('SELECT * FROM audit_log'));
    expect(secrets.filter(({ secret }) => log.includes(secret))).toEqual([]);
    expect(log).toContain('[redacted]');
    // A secret kept as a setting (before ADR 017) is redacted too, whoever writes it.
    const from = await lastAuditId();
    await api.db.query("INSERT INTO settings (key, value) VALUES ('jwt_secret', 'legacy-signing-secret-xyz')");
    await api.db.query("DELETE FROM settings WHERE key = 'jwt_secret'");
    const rows = await auditRowsAfter(from);
    expect(rows).toHaveLength(2);
    expect(JSON.stringify(rows)).not.toContain('legacy-signing-secret-xyz');
  });
});

describe('work that is not a request', () => {
  it("a worker woken during a request records its writes as the server's, not as that request's", async () => {
    const from = await lastAuditId();
    const loop = new PollingLoop(async () => {
      await api.db.query("INSERT INTO settings (key, value) VALUES ('worker_probe', 'x')");
    }, 60_000);
    await runWithAuditSource(
      () => ({ actor_id: ADMIN.id, actor_name: ADMIN.name, address: '10.1.1.1', way: 'console' }),
      async () => {
        // The request's own write carries its source.
        await api.db.query("INSERT INTO settings (key, value) VALUES ('request_probe', 'y')");
        loop.start();
      },
    );
    await waitFor('the worker round', async () => (await auditRowsAfter(from)).length === 2);
    await loop.stop(1000);
    const rows = await auditRowsAfter(from);
    expect(rows.find((row) => row.record_id === 'request_probe')).toMatchObject({
      actor_id: ADMIN.id,
      way: 'console',
      address: '10.1.1.1',
    });
    expect(rows.find((row) => row.record_id === 'worker_probe')).toMatchObject({
      actor_id: null,
      actor_name: null,
      way: 'system',
      address: null,
    });
  });
});

describe('append-only', () => {
  it('the database refuses to change or remove audit rows, whoever asks, and a clear-all of the feed keeps them', async () => {
    const [row] = await api.db.query<{ count: number }>('SELECT count(*)::int AS count FROM audit_log');
    await expect(api.db.query("UPDATE audit_log SET actor_name = 'someone else'")).rejects.toThrow(/append-only/);
    await expect(api.db.query('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
    await expect(api.db.query('TRUNCATE audit_log')).rejects.toThrow(/append-only/);
    await expect(
      api.db.transaction(async (tx) => {
        await tx.query('DELETE FROM audit_log WHERE id = (SELECT min(id) FROM audit_log)');
      }),
    ).rejects.toThrow(/append-only/);
    const [after] = await api.db.query<{ count: number }>('SELECT count(*)::int AS count FROM audit_log');
    expect(after?.count).toBe(row?.count);
  });

  it('the erasure of scrubbed personal data may only replace values with "[removed]", and only when asked for', async () => {
    const [row] = await api.db.query<{ id: number }>(
      `INSERT INTO audit_log (way, entity, action, record_id, actor_name, after)
       VALUES ('parent app', 'leave_requests', 'create', 'erase-1', 'Parent +919800000001',
               '{"parent_phone": "+919800000001", "reason": "Wedding"}')
       RETURNING id::int AS id`,
    );
    const id = row?.id;
    const inErasure = (sql: string) =>
      api.db.transaction(async (tx) => {
        await tx.query("SELECT set_config('tuitiondesk.audit_erasure', 'on', true)");
        await tx.query(sql, [id]);
      });
    // Without the flag: refused, as ever.
    await expect(
      api.db.query(`UPDATE audit_log SET after = after || '{"parent_phone": "[removed]"}' WHERE id = $1`, [id]),
    ).rejects.toThrow(/append-only/);
    // With it: a value rewritten into another, a key added or dropped, the action, time or actor's id
    // changed, or a row removed, are all still refused.
    for (const sql of [
      `UPDATE audit_log SET after = after || '{"reason": "Holiday"}' WHERE id = $1`,
      `UPDATE audit_log SET after = after || '{"extra": "[removed]"}' WHERE id = $1`,
      `UPDATE audit_log SET after = after - 'reason' WHERE id = $1`,
      `UPDATE audit_log SET action = 'delete' WHERE id = $1`,
      `UPDATE audit_log SET at = at - interval '1 day' WHERE id = $1`,
      `UPDATE audit_log SET actor_id = 1 WHERE id = $1`,
      `UPDATE audit_log SET actor_name = 'Someone else' WHERE id = $1`,
      `UPDATE audit_log SET record_id = 'erase-2' WHERE id = $1`,
      `DELETE FROM audit_log WHERE id = $1`,
    ]) {
      await expect(inErasure(sql), sql).rejects.toThrow(/append-only/);
    }
    await inErasure(
      `UPDATE audit_log SET after = after || '{"parent_phone": "[removed]"}', actor_name = 'Parent [removed]',
              record_id = '[removed]' WHERE id = $1`,
    );
    expect(await api.db.query('SELECT record_id, actor_name, after FROM audit_log WHERE id = $1', [id])).toEqual([
      {
        record_id: '[removed]',
        actor_name: 'Parent [removed]',
        after: { parent_phone: '[removed]', reason: 'Wedding' },
      },
    ]);
    // The flag does not outlive its transaction.
    await expect(
      api.db.query(`UPDATE audit_log SET after = after || '{"reason": "[removed]"}' WHERE id = $1`, [id]),
    ).rejects.toThrow(/append-only/);
  });

  it('the retention job removes only rows older than the setting, and records that it did', async () => {
    const [oldest] = await api.db.query<{ id: number }>(
      `INSERT INTO audit_log (at, way, entity, action, record_id)
       VALUES (now() - interval '25 months', 'system', 'students', 'create', 'old-1'),
              (now() - interval '23 months', 'system', 'students', 'create', 'kept-1')
       RETURNING id`,
    );
    expect(oldest).toBeDefined();
    expect((await admin.put('/api/v1/settings/audit', { audit_retention_months: 24 })).statusCode).toBe(200);
    const [countBefore] = await api.db.query<{ count: number }>('SELECT count(*)::int AS count FROM audit_log');
    const removed = await removeExpiredAuditRows(api.db);
    expect(removed).toBe(1);
    const left = await api.db.query<{ record_id: string }>(
      "SELECT record_id FROM audit_log WHERE record_id IN ('old-1', 'kept-1')",
    );
    expect(left).toEqual([{ record_id: 'kept-1' }]);
    const [countAfter] = await api.db.query<{ count: number }>('SELECT count(*)::int AS count FROM audit_log');
    expect(countAfter?.count).toBe((countBefore?.count ?? 0) - 1 + 1);
    const [record] = await api.db.query<AuditRow>(
      "SELECT * FROM audit_log WHERE entity = 'audit_log' ORDER BY id DESC LIMIT 1",
    );
    expect(record).toMatchObject({
      action: 'removed',
      way: 'system',
      actor_id: null,
      after: { removed: 1, retention_months: 24 },
    });
    // Nothing more to remove: no row about it.
    expect(await removeExpiredAuditRows(api.db)).toBe(0);
    // And the flag it used does not outlive its transaction.
    await expect(api.db.query('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
  });
});

describe('GET /audit, the export and the retention setting', () => {
  it('teachers get 403 on every audit call', async () => {
    const teacher = api.as('teacher');
    for (const url of ['/api/v1/audit', '/api/v1/audit/export', '/api/v1/settings/audit']) {
      const response = await teacher.get(url);
      expect(response.statusCode, url).toBe(403);
    }
    expect((await teacher.put('/api/v1/settings/audit', { audit_retention_months: 12 })).statusCode).toBe(403);
  });

  it("a record's full history, newest first, filtered by entity and record; paginated", async () => {
    const student = await api.student({ full_name: 'History One', class_name: '7' });
    await admin.put(`/api/v1/students/${student.id}`, { class_name: '8' });
    await admin.put(`/api/v1/students/${student.id}`, { class_name: '9' });
    const history = await admin.get(`/api/v1/audit?entity=students&record_id=${student.id}`);
    expect(history.statusCode).toBe(200);
    const body = history.json();
    expect(body.total).toBe(3);
    expect(body.entries.map((entry: AuditRow) => entry.action)).toEqual(['update', 'update', 'create']);
    expect(body.entries[0].after).toEqual({ class_name: '9' });
    const page = (await admin.get(`/api/v1/audit?entity=students&record_id=${student.id}&limit=1&offset=1`)).json();
    expect(page).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(page.entries[0].after).toEqual({ class_name: '8' });
    const byActor = (
      await admin.get(`/api/v1/audit?actor_id=${ADMIN.id}&action=update&from=${today()}&to=${today()}`)
    ).json();
    expect(byActor.entries.every((entry: AuditRow) => entry.actor_id === ADMIN.id && entry.action === 'update')).toBe(
      true,
    );
    // Who: part of the name, any case; % and _ are letters there, not patterns.
    const byName = (
      await admin.get(
        `/api/v1/audit?actor=${encodeURIComponent(ADMIN.name.slice(1, 5).toUpperCase())}&entity=students&record_id=${student.id}`,
      )
    ).json();
    expect(byName.total).toBe(3);
    expect((await admin.get(`/api/v1/audit?actor=%25&entity=students&record_id=${student.id}`)).json().total).toBe(0);
    const yesterday = (
      await admin.get(`/api/v1/audit?to=${addDays(today(), -1)}&entity=students&record_id=${student.id}`)
    ).json();
    expect(yesterday.total).toBe(0);
  });

  it('bad filters are 422 naming what to fix', async () => {
    for (const [query, words] of [
      ['from=2026-02-30', 'from: is not a real calendar date'],
      ['from=2026-03-02&to=2026-03-01', 'from: must not be after to'],
      ['way=fax', 'way: must be one of'],
      ['limit=500', 'limit: must be at most 200'],
      ['actor_id=abc', 'actor_id: must be a number'],
    ] as const) {
      const response = await admin.get(`/api/v1/audit?${query}`);
      expect(response.statusCode, query).toBe(422);
      expect(detailOf(response)).toContain(words);
    }
  });

  it('CSV export: the same filters, a header, one line per row, formula-looking text neutralised', async () => {
    const student = await api.student({ full_name: '=HYPERLINK("http://x")', class_name: '7' });
    const response = await admin.get(`/api/v1/audit/export?entity=students&record_id=${student.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = response.body
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean);
    expect(lines[0]).toBe('"When","Who","Account id","Way","Address","What","Action","Record","Before","After"');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`"students","create","${student.id}"`);
    // The JSON cell starts with {, never with =: no cell of the file starts a formula.
    for (const cell of lines[1]?.split('","') ?? []) expect(cell.replace(/^"/, '')).not.toMatch(/^[=+\-@]/);
    // Actor names are free text: one that looks like a formula gets a leading quote.
    await api.db.query(
      `INSERT INTO audit_log (actor_name, way, entity, action, record_id) VALUES ('=cmd|calc', 'api', 'csv-test', 'update', '1')`,
    );
    const injected = await admin.get('/api/v1/audit/export?entity=csv-test');
    expect(injected.body).toContain(`"'=cmd|calc"`);
  });

  it('the export streams a long log whole, in order', async () => {
    await api.db.query(
      `INSERT INTO audit_log (at, way, entity, action, record_id)
       SELECT now() - make_interval(secs => n), 'system', 'bulk-test', 'create', n::text FROM generate_series(1, 2500) n`,
    );
    const response = await admin.get('/api/v1/audit/export?entity=bulk-test');
    const lines = response.body.split('\r\n').filter(Boolean).slice(1);
    expect(lines).toHaveLength(2500);
    expect(lines[0]).toContain('"bulk-test","create","1"');
    expect(lines.at(-1)).toContain('"bulk-test","create","2500"');
  });

  it('the retention setting: read, changed, 422 on bad values, and a change is itself audited', async () => {
    expect((await admin.get('/api/v1/settings/audit')).json()).toEqual({ audit_retention_months: expect.any(Number) });
    for (const bad of [0, 121, 1.5, '12', null]) {
      const response = await admin.put('/api/v1/settings/audit', { audit_retention_months: bad });
      expect(response.statusCode, String(bad)).toBe(422);
      expect(detailOf(response)).toMatch(/^audit_retention_months: /);
    }
    const changed = await admin.put('/api/v1/settings/audit', { audit_retention_months: 60 });
    expect(changed.json()).toEqual({ audit_retention_months: 60 });
    expect((await admin.get('/api/v1/settings/audit')).json()).toEqual({ audit_retention_months: 60 });
  });
});
