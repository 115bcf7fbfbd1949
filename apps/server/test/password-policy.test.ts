/**
 * The server refuses a new password that is common (the shipped list, also with
 * digits or symbols added and look-alike characters), that holds the username, email or name, or
 * that is only spaces, with a `new_password: …` detail; the hash stays as it was. ADMIN_PASSWORD is
 * held to the same rules at start-up.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkNewPassword, commonPasswordList, FIRST_ADMIN } from '../src/lib/password-policy';
import { verifyPassword } from '../src/lib/passwords';
import { type TestClient, testClient } from './helpers/client';
import { cleanUpProcesses, LOCK_FILE, spawnServer, tempDir } from './helpers/server-process';
import { ADMIN_PASSWORD, detailOf, login } from './helpers/test-app';

const LIST_FILE = new URL('../src/lib/common-passwords.txt', import.meta.url);

const COMMON = 'is one of the most common passwords; choose one that is harder to guess';
const DRESSED_UP = 'is a common password with a few characters added or swapped; choose one that is harder to guess';

let api: TestClient;
let teacher: { id: number; username: string; initial_password: string };
beforeAll(async () => {
  api = await testClient();
  const created = await api.teacher({
    first_name: 'Priya',
    last_name: 'Venkatesan',
    email: 'pv.teach@example.com',
  });
  const [row] = await api.db.query<{ id: number }>('SELECT id FROM users WHERE username = $1', [created.username]);
  teacher = { id: row?.id as number, username: created.username, initial_password: created.initial_password };
});
afterAll(async () => {
  await Promise.all([api?.close(), cleanUpProcesses()]);
});

async function userRow(id: number) {
  const [row] = await api.db.query<{ password_hash: string; token_version: number; must_change_password: boolean }>(
    'SELECT password_hash, token_version, must_change_password FROM users WHERE id = $1',
    [id],
  );
  return row;
}

async function changedCount(userId: number): Promise<number> {
  const [row] = await api.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM activities WHERE action = 'auth.password_changed' AND user_id = $1`,
    [userId],
  );
  return row?.n ?? 0;
}

function changePassword(token: string, current: string, next: string) {
  return api.withToken(token).post('/api/v1/auth/change-password', { current_password: current, new_password: next });
}

describe('the shipped list of common passwords', () => {
  it('holds at least 10,000 distinct lower-case entries, most common first, with its source and licence', () => {
    const text = readFileSync(LIST_FILE, 'utf8');
    const entries = text.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
    expect(new Set(entries).size).toBe(entries.length);
    expect(entries.length).toBeGreaterThanOrEqual(10_000);
    expect(entries.every((entry) => entry === entry.toLowerCase() && entry.trim() === entry)).toBe(true);
    expect(entries.slice(0, 3)).toEqual(['123456', 'password', '12345678']);
    expect(text).toMatch(/^# .*zxcvbn 4\.4\.2/m);
    expect(text).toContain('Permission is hereby granted, free of charge');
    // What the server loads is the whole list, read once.
    expect(commonPasswordList().size).toBe(entries.length);
    expect(commonPasswordList()).toBe(commonPasswordList());
  });
});

describe('checkNewPassword', () => {
  const anita = { username: 'tch0042', full_name: 'Anita Li Rao', email: 'a.rao@example.com' };

  it.each([
    ['password', COMMON],
    ['PASSWORD', COMMON],
    ['Qwerty123', COMMON],
    ['Ｐａｓｓｗｏｒｄ', COMMON], // full-width letters
    ['p@ssw0rd', COMMON], // on the list as it is
    ['Password1!', DRESSED_UP],
    ['sunshine2024', DRESSED_UP],
    ['!!dragon99', DRESSED_UP],
    ['p4ssw0rd2024', DRESSED_UP],
    ['L3tMe1n!', DRESSED_UP],
    ['       ', 'cannot be only spaces'],
    ['\t\n\u00a0\u2003  ', 'cannot be only spaces'],
    ['TCH0042', 'must not contain your username (tch0042)'],
    ['my-tch0042-pw', 'must not contain your username (tch0042)'],
    ['x-A.RAO-x', 'must not contain your email address (a.rao)'],
    ['anita', 'must not contain your name (Anita)'],
    ['i-am-4nita!', 'must not contain your name (Anita)'],
    ['bravo-RAO-77', 'must not contain your name (Rao)'],
    ['TuitionDesk!', 'must not contain the name of this application (tuitiondesk)'],
  ])('refuses %j: %s', (password, problem) => {
    expect(checkNewPassword(password, anita)).toBe(problem);
  });

  it.each([
    'violet-harbour-27',
    'correct horse battery staple',
    '  spaces around and inside  ',
    'blue-whale-1987',
    'Tr0ub4dor&3',
    'x847362910583726',
    // "Li" is too short a part of the name to refuse in every word that holds it.
    'lighthouse-keeper',
    'पासवर्ड-सुरक्षित-९',
    'a'.repeat(1024),
  ])('accepts %j', (password) => {
    expect(checkNewPassword(password, anita)).toBeUndefined();
  });

  it('holds the first admin to its username and name', () => {
    expect(checkNewPassword('admin-2024', FIRST_ADMIN)).toBe('must not contain your username (admin)');
    expect(checkNewPassword('chosen-start-password', FIRST_ADMIN)).toBeUndefined();
  });
});

describe('POST /auth/change-password refuses weak new passwords', () => {
  const refused: [string, string][] = [
    ['password', COMMON],
    ['PassWord', COMMON],
    ['iloveyou', COMMON],
    ['1q2w3e4r', COMMON],
    ['Monkey123!', DRESSED_UP],
    ['P@ssw0rd2024', DRESSED_UP],
    ['      ', 'cannot be only spaces'],
    ['\u00a0\u00a0\u00a0\u00a0\u00a0\u00a0', 'cannot be only spaces'],
    ['priya-2024', 'must not contain your name (Priya)'],
    ['my-VENKATESAN-key', 'must not contain your name (Venkatesan)'],
    ['pv.teach-is-me', 'must not contain your email address (pv.teach)'],
  ];

  it('answers 422 naming the problem for each, sent all at once, and keeps the old password', async () => {
    const token = await login(api.app, teacher.username, teacher.initial_password);
    const before = await userRow(teacher.id);
    const table: [string, string][] = [
      ...refused,
      [teacher.username, `must not contain your username (${teacher.username})`],
      [`x-${teacher.username.toUpperCase()}-x`, `must not contain your username (${teacher.username})`],
    ];
    const answers = await Promise.all(
      table.map(([password]) => changePassword(token, teacher.initial_password, password)),
    );
    expect(answers.map((answer) => [answer.statusCode, detailOf(answer)])).toEqual(
      table.map(([, problem]) => [422, `new_password: ${problem}`]),
    );

    // Nothing changed: the same hash and token version, no activity, the old password still signs in.
    expect(await userRow(teacher.id)).toEqual(before);
    expect(await changedCount(teacher.id)).toBe(0);
    expect(await verifyPassword(teacher.initial_password, before?.password_hash as string)).toBe(true);
    const me = await api.withToken(token).get('/api/v1/auth/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ must_change_password: true });
  });

  it('checks the current password first: a wrong one is still a 400, whatever the new one', async () => {
    const token = await login(api.app, teacher.username, teacher.initial_password);
    const answer = await changePassword(token, 'not-the-password', 'password');
    expect(answer.statusCode).toBe(400);
    expect(detailOf(answer)).toBe('Current password is incorrect');
  });

  it('holds the admin to the same rules', async () => {
    const token = await api.adminToken();
    const answer = await changePassword(token, ADMIN_PASSWORD, 'Administrator1');
    expect(answer.statusCode).toBe(422);
    expect(detailOf(answer)).toBe('new_password: must not contain your username (admin)');
    expect((await api.withToken(token).get('/api/v1/auth/me')).statusCode).toBe(200);
  });

  it('accepts good passwords, spaces inside and around included, and signs in with each', async () => {
    let current = teacher.initial_password;
    let token = await login(api.app, teacher.username, current);
    for (const next of ['violet-harbour-27', '  a quiet river at dawn  ', 'पासवर्ड-सुरक्षित-९']) {
      const answer = await changePassword(token, current, next);
      expect(answer.statusCode, answer.body).toBe(200);
      token = answer.json().access_token;
      current = next;
      expect(await login(api.app, teacher.username, next)).toBeTruthy();
    }
    expect(await changedCount(teacher.id)).toBe(3);
    expect((await userRow(teacher.id))?.must_change_password).toBe(false);
  });
});

describe('ADMIN_PASSWORD at start-up', { timeout: 60_000 }, () => {
  it('refuses a common one, or one holding the username, naming the setting, before touching DATA_DIR', async () => {
    const dataDir = tempDir();
    const [common, withUsername] = await Promise.all([
      spawnServer({ DATA_DIR: dataDir, PORT: '0', ADMIN_PASSWORD: 'password1!' }),
      spawnServer({ DATA_DIR: dataDir, PORT: '0', ADMIN_PASSWORD: 'Admin@2024' }),
    ]);
    expect(await common.exited).toBe(1);
    expect(common.output().stderr).toBe(`Invalid configuration:\n  ADMIN_PASSWORD: ${DRESSED_UP}\n`);
    expect(await withUsername.exited).toBe(1);
    expect(withUsername.output().stderr).toBe(
      'Invalid configuration:\n  ADMIN_PASSWORD: must not contain your username (admin)\n',
    );
    expect(existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
    expect(existsSync(path.join(dataDir, 'pgdata'))).toBe(false);
  });
});
