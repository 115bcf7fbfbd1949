/**
 * No one locked out (issue 28, item 7; ADR 046): an admin resets a staff member's password, the
 * centre has more than one admin, and the last admin in use can never be switched off or removed.
 */
import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, detailOf } from './helpers/test-app';
import { admin, api, call, lastActivity, newAdmin, newTeacher, postLogin, twoFactorApp } from './helpers/two-factor';

twoFactorApp();

const OWN_PASSWORD = 'meadow-signal-47';

async function adminId(username: string): Promise<number> {
  const [row] = await api.db.query<{ id: number }>('SELECT id FROM users WHERE lower(username) = lower($1)', [
    username,
  ]);
  return row?.id as number;
}

describe('an admin resets a staff member’s password', () => {
  it('answers a new password once, forces a change, ends every session, and records who did it', async () => {
    const teacher = await newTeacher();
    const before = await call('GET', '/auth/me', teacher.token);
    expect(before.statusCode).toBe(200);

    const reset = await call('POST', `/staff/${teacher.id}/reset-password`, admin);
    expect(reset.statusCode, reset.body).toBe(200);
    const answer = reset.json();
    expect(answer).toEqual({
      user_id: teacher.id,
      username: teacher.username,
      full_name: expect.any(String),
      role: 'teacher',
      new_password: expect.stringMatching(/^\S{16}$/),
      message: expect.stringContaining('with the password shown here, once'),
    });

    // The session they had is over, and the old password no longer signs in.
    const old = await call('GET', '/auth/me', teacher.token);
    expect(old.statusCode).toBe(401);
    expect((await postLogin({ username: teacher.username, password: teacher.password })).statusCode).toBe(401);

    const signedIn = await postLogin({ username: teacher.username, password: answer.new_password });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().user.must_change_password).toBe(true);
    // Until they choose their own, nothing but the password change is open to them.
    const token = signedIn.json().access_token as string;
    expect((await call('GET', '/students/', token)).statusCode).toBe(403);
    const changed = await call('POST', '/auth/change-password', token, {
      current_password: answer.new_password,
      new_password: OWN_PASSWORD,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().user.must_change_password).toBe(false);

    const activity = await lastActivity('account.password_reset');
    expect(activity?.description).toBe(
      `Administrator reset the password of ${answer.full_name}; they choose a new one at their next sign-in`,
    );
    const audit = await api.db.query<{ before: string; after: string; way: string; actor_name: string }>(
      `SELECT before::text, after::text, way, actor_name FROM audit_log
        WHERE entity = 'users' AND action = 'update' AND record_id = $1 ORDER BY id`,
      [String(teacher.id)],
    );
    const resetRow = audit.find((row) => row.after.includes('"must_change_password": true'));
    expect(resetRow).toMatchObject({ actor_name: 'Administrator', way: 'api' });
    for (const row of audit) {
      expect(`${row.before}${row.after}`).not.toContain(answer.new_password);
      expect(`${row.before}${row.after}`).not.toMatch(/scrypt|argon2/);
    }
  });

  it('resets another admin too, but never one’s own, and says what is wrong', async () => {
    const other = await newAdmin('deputy', OWN_PASSWORD);
    const reset = await call('POST', `/staff/${other.id}/reset-password`, admin);
    expect(reset.statusCode).toBe(200);
    expect(reset.json().role).toBe('admin');
    expect((await call('GET', '/auth/me', other.token)).statusCode).toBe(401);

    const own = await call('POST', `/staff/${await adminId('admin')}/reset-password`, admin);
    expect(own.statusCode).toBe(409);
    expect(detailOf(own)).toBe(
      'Change your own password with Change Password (it asks for your current one); another admin can reset it if you have forgotten it',
    );
    const unknown = await call('POST', '/staff/999999/reset-password', admin);
    expect(unknown.statusCode).toBe(404);
    expect(detailOf(unknown)).toBe('Staff account with id 999999 was not found');
    const bad = await call('POST', '/staff/abc/reset-password', admin);
    expect(bad.statusCode).toBe(422);

    const teacher = await newTeacher();
    expect((await call('POST', `/staff/${other.id}/reset-password`, teacher.token)).statusCode).toBe(403);
    // The refused calls changed nothing: the admin's own session goes on.
    expect((await call('GET', '/auth/me', admin)).statusCode).toBe(200);
  });
});

describe('more than one admin', () => {
  it('adds an admin with a password shown once; the new admin must change it and follows the two-factor rule', async () => {
    const created = await call('POST', '/admins', admin, { username: 'Office.Manager', full_name: '  Meena Rao ' });
    expect(created.statusCode, created.body).toBe(200);
    const body = created.json();
    expect(body).toMatchObject({
      username: 'Office.Manager',
      full_name: 'Meena Rao',
      disabled: false,
      must_change_password: true,
      two_factor_enabled: false,
      initial_password: expect.stringMatching(/^\S{16}$/),
    });
    expect(await lastActivity('account.admin_created')).toMatchObject({
      description: 'Administrator added the admin account Office.Manager for Meena Rao',
    });
    const list = await call('GET', '/admins', admin);
    expect(list.json().map((a: { username: string }) => a.username)).toContain('Office.Manager');
    expect(JSON.stringify(list.json())).not.toContain(body.initial_password);

    // The centre requires two-factor sign-in of admins: the new admin owes it too, after the password.
    await api.db.query(
      "INSERT INTO settings (key, value) VALUES ('require_admin_two_factor', 'true') ON CONFLICT (key) DO UPDATE SET value = 'true'",
    );
    try {
      const signedIn = await postLogin({ username: 'office.manager', password: body.initial_password });
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      expect(signedIn.json().user).toMatchObject({ role: 'admin', must_change_password: true });
      const changed = await call('POST', '/auth/change-password', signedIn.json().access_token, {
        current_password: body.initial_password,
        new_password: OWN_PASSWORD,
      });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json().user.must_enrol_two_factor).toBe(true);
      expect((await call('GET', '/admins', changed.json().access_token)).statusCode).toBe(403);
    } finally {
      await api.db.query("UPDATE settings SET value = 'false' WHERE key = 'require_admin_two_factor'");
    }
  });

  it('refuses a name taken in any case, a teacher-like name and a bad one; two at once make one account', async () => {
    const taken = await call('POST', '/admins', admin, { username: 'ADMIN', full_name: 'Someone' });
    expect(taken.statusCode).toBe(409);
    expect(detailOf(taken)).toBe('username: ADMIN is already taken; choose another');
    const reserved = await call('POST', '/admins', admin, { username: 'tch0042', full_name: 'Someone' });
    expect(reserved.statusCode).toBe(422);
    expect(detailOf(reserved)).toBe("username: names like TCH0001 are kept for teachers' accounts; choose another");
    const spaced = await call('POST', '/admins', admin, { username: 'two words', full_name: 'Someone' });
    expect(spaced.statusCode).toBe(422);
    expect(detailOf(spaced)).toBe('username: may hold only letters, digits, dots, dashes and underscores');
    expect((await call('POST', '/admins', admin, { username: 'abc' })).statusCode).toBe(422);

    const both = await Promise.all([
      call('POST', '/admins', admin, { username: 'twin', full_name: 'Twin One' }),
      call('POST', '/admins', admin, { username: 'Twin', full_name: 'Twin Two' }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await api.db.query("SELECT 1 FROM users WHERE lower(username) = 'twin'")).toHaveLength(1);
  });

  it('switches an admin off (no sign-in, sessions ended) and back on', async () => {
    const other = await newAdmin('evening', OWN_PASSWORD);
    const off = await call('POST', `/admins/${other.id}/disable`, admin);
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ id: other.id, disabled: true });
    expect((await call('GET', '/auth/me', other.token)).statusCode).toBe(401);
    const refused = await postLogin({ username: 'evening', password: OWN_PASSWORD });
    expect(refused.statusCode).toBe(401);
    expect(detailOf(refused)).toBe(
      'This account has been switched off. Ask an admin of the centre to switch it back on',
    );
    // A wrong password learns nothing of it.
    expect(detailOf(await postLogin({ username: 'evening', password: 'wrong-guess-12' }))).toBe(
      'Incorrect username or password',
    );
    expect(await lastActivity('account.admin_disabled')).toMatchObject({
      description: 'Administrator switched off the admin account of Admin evening',
    });

    const on = await call('POST', `/admins/${other.id}/enable`, admin);
    expect(on.json()).toMatchObject({ disabled: false });
    expect((await postLogin({ username: 'evening', password: OWN_PASSWORD })).statusCode).toBe(200);

    const teacher = await newTeacher();
    const notAdmin = await call('POST', `/admins/${teacher.id}/disable`, admin);
    expect(notAdmin.statusCode).toBe(404);
    expect(detailOf(notAdmin)).toBe(`Account with id ${teacher.id} is not an admin account`);
    expect((await call('DELETE', '/admins/999999', admin)).statusCode).toBe(404);
    const own = await call('POST', `/admins/${await adminId('admin')}/disable`, admin);
    expect(own.statusCode).toBe(409);
    expect(detailOf(own)).toBe('You cannot switch off or remove your own admin account; another admin can');
    expect((await call('DELETE', `/admins/${await adminId('admin')}`, admin)).statusCode).toBe(409);
  });
});

describe('the last admin in use', () => {
  async function onlyInUse(...usernames: string[]): Promise<void> {
    await api.db.query("UPDATE users SET disabled_at = now() WHERE role = 'admin' AND NOT (username = ANY($1))", [
      usernames,
    ]);
  }
  async function adminsInUse(): Promise<string[]> {
    const rows = await api.db.query<{ username: string }>(
      "SELECT username FROM users WHERE role = 'admin' AND disabled_at IS NULL",
    );
    return rows.map((row) => row.username);
  }
  const LAST = /^Admin (north|south|east|west) is the last admin account in use: add or switch on another admin first/;

  it('two admins removing each other at once leave one of them', async () => {
    const north = await newAdmin('north', OWN_PASSWORD);
    const south = await newAdmin('south', OWN_PASSWORD);
    await onlyInUse('north', 'south');
    try {
      const answers = await Promise.all([
        call('DELETE', `/admins/${south.id}`, north.token),
        call('DELETE', `/admins/${north.id}`, south.token),
      ]);
      // The loser is refused by the rule (409), or finds its own session gone already (401).
      expect(answers.map((r) => r.statusCode).sort()).toEqual([
        200,
        answers.some((r) => r.statusCode === 401) ? 401 : 409,
      ]);
      expect(await adminsInUse()).toHaveLength(1);
    } finally {
      await api.db.query("UPDATE users SET disabled_at = NULL WHERE role = 'admin'");
    }
  });

  it('holds past the sign-in check: both requests already authorised, the second is refused', async () => {
    // Both admins passed authentication; their changes reach the database at once.
    const { removeAdmin, setAdminInUse } = await import('../src/modules/auth/accounts');
    const east = await newAdmin('east', OWN_PASSWORD);
    const west = await newAdmin('west', OWN_PASSWORD);
    await onlyInUse('east', 'west');
    try {
      // A third transaction holds the admin rows while both changes start, so they meet at the lock.
      let started!: () => void;
      const held = new Promise<void>((resolve) => {
        started = resolve;
      });
      const holder = api.db.transaction(async (tx) => {
        await tx.query("SELECT id FROM users WHERE role = 'admin' FOR UPDATE");
        started();
        await new Promise((resolve) => setTimeout(resolve, 400));
      });
      await held;
      const results = await Promise.allSettled([
        setAdminInUse(api.ctx, { id: east.id, full_name: 'Admin east' }, west.id, false),
        removeAdmin(api.ctx, { id: west.id, full_name: 'Admin west' }, east.id),
      ]);
      await holder;
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(refused.reason).toMatchObject({ statusCode: 409, code: 'account.last_admin' });
      expect((refused.reason as Error).message).toMatch(LAST);
      expect(await adminsInUse()).toHaveLength(1);
    } finally {
      await api.db.query("UPDATE users SET disabled_at = NULL WHERE role = 'admin'");
    }
    // The first-start admin's password still signs in once back on.
    expect((await postLogin({ username: 'admin', password: ADMIN_PASSWORD })).statusCode).toBe(200);
  });
});
