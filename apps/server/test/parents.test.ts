import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { hashAccessCode } from '../src/modules/families/access-codes';
import { freshAddress } from './helpers/client';
import {
  addSubscription,
  admin,
  api,
  family,
  insertMessage,
  issue,
  parentGet,
  parentLogin,
  parentsApp,
  signIn,
  status,
  teacher,
} from './helpers/parents';
import { detailOf, uniquePhone } from './helpers/test-app';

// The inbox, receipts and a child's attendance: parents-inbox.test.ts.
parentsApp();

describe('staff: parent access', () => {
  it('shows the state before any code, with every child on the phone by name', async () => {
    const phone = uniquePhone();
    const zara = await api.student({ full_name: 'Zara Khan', parent_phone: phone });
    // An import may leave the parent name empty: the name on a sibling's record is used.
    await api.db.query("UPDATE students SET parent_name = '' WHERE id = $1", [zara.id]);
    const aman = await api.student({
      full_name: 'Aman Khan',
      class_name: '9',
      parent_phone: phone,
      parent_name: 'Farah Khan',
    });
    const response = await status(zara.id, teacher);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      phone,
      parent_name: 'Farah Khan',
      children: [
        { id: aman.id, unique_id: aman.unique_id, full_name: 'Aman Khan', class_name: '9' },
        { id: zara.id, unique_id: zara.unique_id, full_name: 'Zara Khan', class_name: '7' },
      ],
      has_code: false,
      issued_at: null,
      issued_by: null,
      last_sign_in_at: null,
      devices_with_notifications: 0,
      // A teacher may issue the first code, not replace one.
      can_replace_code: false,
    });
    expect((await status(zara.id, admin)).json()).toMatchObject({ can_replace_code: true });
  });

  it('lets a teacher issue a code: shown once as XXXX-XXXX, only its hash stored, an activity row without it', async () => {
    // A new student on a phone of its own.
    const student = await api.student({ full_name: 'Nila Rao', parent_name: 'Hari Rao' });
    const phone = student.parent_phone;
    const response = await issue(student.id, teacher);
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(body.message).toBe('Access code issued. Give it to the parent now: it cannot be shown again.');
    expect(body).toMatchObject({ phone, parent_name: 'Hari Rao', has_code: true, issued_by: 'Tess Teacher' });
    expect(body.issued_at).toEqual(expect.any(String));

    const compact = body.code.replace('-', '');
    const [stored] = await api.db.query<{ code_hash: string; token_version: number; issued_by_user_id: number }>(
      'SELECT code_hash, token_version, issued_by_user_id FROM parent_access WHERE phone = $1',
      [phone],
    );
    expect(stored?.code_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(stored?.code_hash).not.toContain(compact);
    expect(stored?.token_version).toBe(0);

    const [activity] = await api.db.query<{ action: string; description: string; actor: string }>(
      "SELECT action, description, actor FROM activities WHERE action LIKE 'parents.%' ORDER BY id DESC LIMIT 1",
    );
    expect(activity?.actor).toBe('Tess Teacher');
    expect(activity?.description).toContain('Tess Teacher');
    expect(activity?.description).toContain('Hari Rao');
    expect(activity?.description).toContain(phone);
    expect(activity?.description).not.toContain(compact);
    expect(activity?.description).not.toContain(body.code);

    // The status never reveals the code, whoever asks.
    for (const token of [admin, teacher]) {
      const after = await status(student.id, token);
      expect(after.statusCode).toBe(200);
      expect(after.json()).not.toHaveProperty('code');
      expect(after.body).not.toContain(compact);
      expect(after.body).not.toContain(body.code.slice(5));
      expect(after.json()).toMatchObject({ has_code: true, issued_by: 'Tess Teacher', last_sign_in_at: null });
    }
  });

  it('answers 401 without a token and 404 for an unknown student, 422 for a bad id', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const anonymous = await api.anonymous().request(method, '/api/v1/students/1/parent-access');
      expect(anonymous.statusCode).toBe(401);
      const missing = await api.as('admin').request(method, '/api/v1/students/999999/parent-access');
      expect(missing.statusCode).toBe(404);
      expect(detailOf(missing)).toBe('Student not found');
      const bad = await api.as('admin').request(method, '/api/v1/students/abc/parent-access');
      expect(bad.statusCode).toBe(422);
      expect(detailOf(bad)).toMatch(/^id: /);
    }
    expect(
      await api.db.query('SELECT 1 FROM parent_access WHERE phone NOT IN (SELECT parent_phone FROM students)'),
    ).toEqual([]);
  });

  it('counts the devices with notifications', async () => {
    const { phone, children } = await family(['Devi Iyer']);
    await addSubscription(phone);
    await addSubscription(phone);
    const response = await status(children[0]?.id as number);
    expect(response.json()).toMatchObject({ has_code: true, devices_with_notifications: 2 });
  });
});

describe('POST /parent/login', () => {
  it('signs a parent in with the code as issued, and records the sign-in', async () => {
    // A new student on a phone of its own.
    const student = await api.student({ full_name: 'Omar Ali', parent_name: 'Sara Ali' });
    const phone = student.parent_phone;
    const { code } = (await issue(student.id)).json();
    const response = await parentLogin(phone, code);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      token_type: 'bearer',
      expires_in: 180 * 24 * 3600,
      parent: {
        phone,
        parent_name: 'Sara Ali',
        children: [{ id: student.id, unique_id: student.unique_id, full_name: 'Omar Ali', class_name: '7' }],
      },
    });
    const me = await parentGet('/parent/me', body.access_token);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual(body.parent);
    const [row] = await api.db.query<{ last_sign_in_at: string | null }>(
      'SELECT last_sign_in_at FROM parent_access WHERE phone = $1',
      [phone],
    );
    expect(row?.last_sign_in_at).toEqual(expect.any(String));
  });

  it('accepts the code typed lower-case, without the dash, with spaces, and the phone in another format', async () => {
    const phone = uniquePhone();
    const student = await api.student({ parent_phone: phone });
    const { code } = (await issue(student.id)).json() as { code: string };
    expect((await parentLogin(phone, code.toLowerCase())).statusCode).toBe(200);
    expect((await parentLogin(phone, code.replace('-', ''))).statusCode).toBe(200);
    expect((await parentLogin(phone, ` ${code.slice(0, 4)} ${code.slice(5)} `)).statusCode).toBe(200);
    expect((await parentLogin(`00${phone.slice(1)}`, code)).statusCode).toBe(200);
  });

  it('reads O as 0 and I or L as 1', async () => {
    const phone = uniquePhone();
    await api.student({ parent_phone: phone });
    // A known code, so the look-alikes are certain to be in it.
    await api.db.query(`INSERT INTO parent_access (phone, code_hash, issued_by) VALUES ($1, $2, 'Admin')`, [
      phone,
      await hashAccessCode('10AB0C1D'),
    ]);
    expect((await parentLogin(phone, 'lOAB-oCiD')).statusCode).toBe(200);
    expect((await parentLogin(phone, 'IOABOC1D')).statusCode).toBe(200);
  });

  it('answers the same 401 for a wrong code, an unknown phone, a phone without a code and text that is no code', async () => {
    const { phone, code } = await family(['Rhea Sen']);
    const wrongCode = code.startsWith('A') ? `B${code.slice(1)}` : `A${code.slice(1)}`;
    const noCodePhone = uniquePhone();
    await api.student({ parent_phone: noCodePhone });
    const address = freshAddress();
    for (const [p, c] of [
      [phone, wrongCode],
      [uniquePhone(), code],
      [noCodePhone, code],
      [phone, 'not a code'],
    ] as const) {
      const response = await parentLogin(p, c, address);
      expect(response.statusCode).toBe(401);
      expect(detailOf(response)).toBe('Phone number or access code is incorrect');
    }
  });

  it('names the field of a malformed request in a 422', async () => {
    const noPhone = await api.anonymous().post('/api/v1/parent/login', { code: 'ABCD-EFGH' });
    expect(noPhone.statusCode).toBe(422);
    expect(detailOf(noPhone)).toMatch(/^phone: /);
    const noCode = await api.anonymous().post('/api/v1/parent/login', { phone: uniquePhone() });
    expect(noCode.statusCode).toBe(422);
    expect(detailOf(noCode)).toMatch(/^code: /);
  });

  it('throttles repeated failures for one phone from one address with 429, not the family elsewhere, and the block ends', async () => {
    const { phone, code } = await family(['Tara Pillai']);
    const wrongCode = code.startsWith('A') ? `B${code.slice(1)}` : `A${code.slice(1)}`;
    const attacker = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await parentLogin(phone, wrongCode, attacker)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const blocked = await parentLogin(phone, code, attacker);
    expect(blocked.statusCode).toBe(429);
    expect(detailOf(blocked)).toMatch(/^Too many sign-in attempts\. Try again in \d+ minutes?\.$/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // The family, from its own phone's address, is not held back (no malicious lockout) ...
    expect((await parentLogin(phone, code)).statusCode).toBe(200);
    // ... nor is another family.
    const other = await family(['Uma Pillai']);
    expect((await parentLogin(other.phone, other.code)).statusCode).toBe(200);
    const key = `pw:parent:${phone}@${attacker}`;
    await api.db.query("UPDATE login_throttle SET blocked_until = now() - interval '1 second' WHERE key = $1", [key]);
    expect((await parentLogin(phone, code, attacker)).statusCode).toBe(200);
    expect(await api.db.query('SELECT 1 FROM login_throttle WHERE key = $1', [key])).toEqual([]);
  });

  it('throttles one address trying many phones', async () => {
    const address = freshAddress();
    const statuses: number[] = [];
    // Text that cannot be a code fails without a hash (nothing about the phone to hide), so this is quick.
    for (let i = 0; i < 21; i += 1) statuses.push((await parentLogin(uniquePhone(), 'nope', address)).statusCode);
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
  });
});

describe('issuing a code again (an admin; teachers: test/family-access.test.ts)', () => {
  it('replaces the code, signs out the devices, revokes their subscriptions and queues them the notice', async () => {
    const { phone, children, code, token } = await family(['Vikram Shah', 'Anya Shah'], 'Rita Shah');
    expect((await parentGet('/parent/me', token)).statusCode).toBe(200);
    await addSubscription(phone);
    const messageId = await insertMessage(phone);
    const subscription = await addSubscription(phone);
    await api.db.query('INSERT INTO push_outbox (message_id, subscription_id) VALUES ($1, $2)', [
      messageId,
      subscription,
    ]);

    const again = await issue(children[1]?.id as number, admin);
    expect(again.statusCode).toBe(201);
    const body = again.json();
    expect(body.message).toBe(
      "New access code issued. The parent's devices have been signed out and told. Give them the new code: it cannot be shown again.",
    );
    expect(body.code).not.toBe(code);
    expect(body).toMatchObject({
      devices_with_notifications: 0,
      last_sign_in_at: null,
      issued_by: 'Administrator',
      can_replace_code: true,
    });

    const old = await parentGet('/parent/me', token);
    expect(old.statusCode).toBe(401);
    // Revoked, not yet deleted: each device waits for the one notice the worker sends it (then goes).
    const devices = await api.db.query<{ revoked: boolean }>(
      'SELECT revoked_at IS NOT NULL AS revoked FROM push_subscriptions WHERE phone = $1',
      [phone],
    );
    expect(devices).toEqual([{ revoked: true }, { revoked: true }]);
    expect(await api.db.query('SELECT 1 FROM push_outbox WHERE message_id = $1', [messageId])).toEqual([]);
    const queued = await api.db.query<{ kind: string; subject: string; sent_by: string }>(
      `SELECT m.kind, m.subject, m.sent_by FROM push_outbox o JOIN messages m ON m.id = o.message_id
        JOIN push_subscriptions s ON s.id = o.subscription_id WHERE s.phone = $1`,
      [phone],
    );
    expect(queued).toEqual(
      Array(2).fill({
        kind: 'access_notice',
        subject: 'Your TuitionDesk access was changed',
        sent_by: 'Administrator',
      }),
    );
    const [row] = await api.db.query<{ token_version: number }>(
      'SELECT token_version FROM parent_access WHERE phone = $1',
      [phone],
    );
    expect(row?.token_version).toBe(1);

    expect((await parentLogin(phone, code)).statusCode).toBe(401);
    const fresh = await signIn(phone, body.code);
    expect((await parentGet('/parent/me', fresh)).statusCode).toBe(200);
    const [activity] = await api.db.query<{ action: string; description: string }>(
      "SELECT action, description FROM activities WHERE action LIKE 'parents.%' ORDER BY id DESC LIMIT 1",
    );
    expect(activity?.action).toBe('parents.access_reissued');
    expect(activity?.description).not.toContain(body.code.replace('-', ''));
  });
});

describe('audiences', () => {
  async function apiOperations(): Promise<{ method: string; path: string }[]> {
    const document = (await api.anonymous().get('/api/openapi.json')).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations: { method: string; path: string }[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      if (!path.startsWith('/api/v1/')) continue;
      for (const method of Object.keys(item)) {
        if (['get', 'post', 'put', 'patch', 'delete'].includes(method)) {
          operations.push({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, '1') });
        }
      }
    }
    return operations;
  }

  function call(operation: { method: string; path: string }, token?: string): Promise<LightMyRequestResponse> {
    const caller = token ? api.withToken(token) : api.anonymous();
    const body = operation.method === 'GET' || operation.method === 'DELETE' ? undefined : {};
    return caller.request(operation.method as 'GET', operation.path, body);
  }

  it('refuses a parent token with 403 on every staff call, and a staff token with 403 on every parent call', async () => {
    const { token: parentToken } = await family(['Wasim Akhtar']);
    const operations = await apiOperations();
    const publicOperations: string[] = [];
    const staffChecked: string[] = [];
    const parentChecked: string[] = [];
    for (const operation of operations) {
      const name = `${operation.method} ${operation.path}`;
      // The WhatsApp webhook is public: Meta proves itself by its signature (401 without it), not by a token.
      if ((await call(operation)).statusCode !== 401 || operation.path === '/api/v1/whatsapp/webhook') {
        publicOperations.push(name);
        continue;
      }
      const isParentCall = operation.path.startsWith('/api/v1/parent/');
      const response = await call(operation, isParentCall ? admin : parentToken);
      expect({ name, status: response.statusCode }).toEqual({ name, status: 403 });
      (isParentCall ? parentChecked : staffChecked).push(name);
      if (isParentCall) expect((await call(operation, teacher)).statusCode).toBe(403);
    }
    expect(publicOperations.filter((name) => !name.includes('/parent/')).sort()).toEqual([
      // The centre's name and logo, for the parent app's sign-in page (ADR 042).
      'GET /api/v1/centre',
      'GET /api/v1/centre/logo',
      'GET /api/v1/health',
      'GET /api/v1/whatsapp/webhook',
      'POST /api/v1/auth/login',
      'POST /api/v1/payments/razorpay/webhook',
      'POST /api/v1/whatsapp/webhook',
    ]);
    expect(publicOperations).toEqual(
      expect.arrayContaining(['POST /api/v1/parent/login', 'POST /api/v1/parent/receipts']),
    );
    expect(staffChecked).toEqual(
      expect.arrayContaining([
        'GET /api/v1/students/',
        'GET /api/v1/students/1/parent-access',
        'POST /api/v1/students/1/parent-access',
        'GET /api/v1/settings',
        'PUT /api/v1/settings',
        'POST /api/v1/attendance/approve',
        'GET /api/v1/communications/history',
        'GET /api/v1/auth/me',
      ]),
    );
    expect(staffChecked.length).toBeGreaterThan(30);
    expect(parentChecked).toEqual(
      expect.arrayContaining([
        'GET /api/v1/parent/me',
        'GET /api/v1/parent/messages',
        'POST /api/v1/parent/messages/1/read',
        'GET /api/v1/parent/children/1/attendance',
      ]),
    );
  });

  it('refuses parent calls without a token, and with a token that is no token', async () => {
    for (const url of ['/api/v1/parent/me', '/api/v1/parent/messages']) {
      expect((await api.anonymous().get(url)).statusCode).toBe(401);
      expect((await api.withToken('nonsense').get(url)).statusCode).toBe(401);
    }
  });
});
