import { describe, expect, it } from 'vitest';
import {
  api,
  createTeacherAccount,
  expectAccessible,
  signedInPage,
  signIn,
  uniquePhone,
  useBrowser,
} from './support/browser';

const { browser } = useBrowser();
const PHONE = { width: 390, height: 844 };

interface HistoryRecord {
  student_id: number;
  status: string;
  marked_by: string;
}

/** Letters of its own for each try: a second try (after a timeout) must not find the first try's students. */
let tries = 0;
const tryTag = () =>
  `${String(process.pid).replace(/\d/g, (digit) => 'abcdefghij'[Number(digit)] ?? '')}${'xyzw'[tries++ % 4]}`;

describe('a teacher marks a class with no network', () => {
  it('keeps the marks on the phone across a reload offline, and sends them once when the network returns', async () => {
    const tag = tryTag();
    const named = (first: string) => `${first} Offline ${tag}`;
    const names = ['Ojas', 'Pari', 'Qadir', 'Rhea', 'Sana'].map(named);
    const ids: number[] = [];
    for (const full_name of names) {
      const student = await api<{ id: number }>('/students/', {
        json: { full_name, class_name: '8', parent_name: 'Parent', parent_phone: uniquePhone() },
      });
      ids.push(student.id);
    }
    const teacher = await createTeacherAccount(
      { first_name: 'Usha', last_name: 'Unplugged', classes_assigned: ['8'] },
      'meadow-signal-47',
    );
    const { context, page } = await signedInPage(browser(), teacher, PHONE);

    // The console installs its service worker on the first visit; the next load is served through it,
    // and the teacher's registers are read ahead and kept.
    await page.goto('/mark-attendance?class_name=8');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page.getByRole('group', { name: `Attendance of ${named('Ojas')}` }).waitFor();

    await context.setOffline(true);
    // Offline for the service worker too: what the console shows from here comes from what it kept.
    const [worker] = context.serviceWorkers();
    expect(
      await worker?.evaluate(() =>
        fetch('/api/v1/health').then(
          () => 'reached',
          () => 'offline',
        ),
      ),
    ).toBe('offline');
    // Nobody is marked until the teacher says so (ADR 048): All Present, then the absences.
    await page.getByRole('button', { name: 'Mark All Present' }).click();
    for (const name of [named('Ojas'), named('Qadir'), named('Sana')]) {
      await page
        .getByRole('group', { name: `Attendance of ${name}` })
        .getByRole('button', { name: 'Absent' })
        .click();
    }
    await page.getByRole('button', { name: 'Submit Attendance' }).click();
    const roster = await api<{ students: unknown[] }>('/attendance/roster?class_name=8');
    const classSize = roster.students.length;
    const waiting = `${classSize} marks waiting to be sent`;
    await page.getByRole('status', { name: /^Kept on this device at .* waiting to be sent$/ }).waitFor();
    await page.getByRole('link', { name: waiting }).waitFor();

    // Still offline: the console opens from the installed app, the marks as they were made.
    await page.reload();
    await page.getByRole('group', { name: `Attendance of ${named('Ojas')}` }).waitFor();
    await page.getByRole('link', { name: waiting }).waitFor();
    await page.getByText(waiting, { exact: true }).waitFor();
    const pressed = async (name: string) =>
      page
        .getByRole('group', { name: `Attendance of ${name}` })
        .locator('[aria-pressed="true"]')
        .getAttribute('aria-label');
    expect(await pressed(named('Ojas'))).toBe('Absent');
    expect(await pressed(named('Pari'))).toBe('Present');
    await expectAccessible(page);
    const stillNothing = await api<HistoryRecord[]>(`/attendance/history?start_date=${today()}&end_date=${today()}`);
    expect(stillNothing.filter((record) => ids.includes(record.student_id))).toEqual([]);

    // The network returns: the marks go by themselves, and the teacher sees when.
    await context.setOffline(false);
    await page.getByRole('status', { name: /^Saved at \d\d:\d\d/ }).waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByRole('link', { name: waiting }).count()).toBe(0);

    const saved = await api<HistoryRecord[]>(`/attendance/history?start_date=${today()}&end_date=${today()}`);
    const ours = saved.filter((record) => ids.includes(record.student_id));
    expect(ours).toHaveLength(names.length);
    const byId = new Map(ours.map((record) => [record.student_id, record]));
    expect(ids.map((id) => byId.get(id)?.status)).toEqual(['absent', 'present', 'absent', 'present', 'absent']);
    expect(new Set(ours.map((record) => record.marked_by))).toEqual(new Set(['Usha Unplugged']));
    await context.close();
  });
});

describe('offline from the first sign-in (ADR 048)', () => {
  it('a teacher who never opened Mark Attendance marks with no network, and the marks are saved when it returns', async () => {
    const names = ['Tara Firstday', 'Umar Firstday', 'Vera Firstday'];
    const ids: number[] = [];
    for (const full_name of names) {
      const student = await api<{ id: number }>('/students/', {
        json: { full_name, class_name: '10', parent_name: 'Parent', parent_phone: uniquePhone() },
      });
      ids.push(student.id);
    }
    const teacher = await createTeacherAccount(
      { first_name: 'Yamini', last_name: 'Firstday', classes_assigned: ['10'] },
      'lantern-orchid-58',
    );
    // Signs in and stays on the dashboard: the console says when it can work offline.
    const { context, page } = await signedInPage(browser(), teacher, PHONE);
    await page.getByRole('status', { name: /^Not ready yet to work offline|^Ready to work offline/ }).waitFor();
    await page
      .getByRole('status', { name: /^Ready to work offline: your registers were kept on this device at \d\d:\d\d$/ })
      .waitFor({ timeout: 60_000 });
    await expectAccessible(page);

    await context.setOffline(true);
    await page.goto('/mark-attendance?class_name=10');
    await page.getByRole('group', { name: 'Attendance of Tara Firstday' }).waitFor();
    await page.getByRole('button', { name: 'Mark All Present' }).click();
    await page
      .getByRole('group', { name: 'Attendance of Umar Firstday' })
      .getByRole('button', { name: 'Absent' })
      .click();
    await page.getByRole('button', { name: 'Submit Attendance' }).click();
    await page.getByRole('status', { name: /^Kept on this device at .* waiting to be sent$/ }).waitFor();
    const none = await api<HistoryRecord[]>(`/attendance/history?start_date=${today()}&end_date=${today()}`);
    expect(none.filter((record) => ids.includes(record.student_id))).toEqual([]);

    await context.setOffline(false);
    await page.getByRole('status', { name: /^Saved at \d\d:\d\d/ }).waitFor({ timeout: 30_000 });
    const saved = await api<HistoryRecord[]>(`/attendance/history?start_date=${today()}&end_date=${today()}`);
    const byId = new Map(saved.map((record) => [record.student_id, record]));
    expect(ids.map((id) => `${byId.get(id)?.status} by ${byId.get(id)?.marked_by}`)).toEqual([
      'present by Yamini Firstday',
      'absent by Yamini Firstday',
      'present by Yamini Firstday',
    ]);
    await context.close();
  });
});

describe('one phone, two teachers', () => {
  it("never sends one teacher's waiting marks as another's, and sends them when their teacher is back", async () => {
    const student = await api<{ id: number }>('/students/', {
      json: { full_name: 'Vani Shared', class_name: '7', parent_name: 'Parent', parent_phone: uniquePhone() },
    });
    const first = await createTeacherAccount(
      { first_name: 'Wafa', last_name: 'First', classes_assigned: ['7'] },
      'harbour-violet-52',
    );
    const second = await createTeacherAccount(
      { first_name: 'Xavi', last_name: 'Second', classes_assigned: ['7'] },
      'quartz-meadow-83',
    );
    const { context, page } = await signedInPage(browser(), first, PHONE);
    await page.goto('/mark-attendance?class_name=7');
    await page.getByRole('group', { name: 'Attendance of Vani Shared' }).waitFor();

    await context.setOffline(true);
    await page.getByRole('group', { name: 'Attendance of Vani Shared' }).getByRole('button', { name: 'Late' }).click();
    await page.getByRole('button', { name: 'Submit Attendance' }).click();
    await page.getByRole('status', { name: /^Kept on this device at .* waiting to be sent$/ }).waitFor();

    // Signing out with marks waiting asks first; they stay on the phone.
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('If you sign out now they stay on this device').waitFor();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Sign out anyway' }).click();
    await page.waitForURL('**/login');
    await context.setOffline(false);

    // Another teacher on the same phone: nothing of the first one's is shown or sent.
    await signIn(page, second.username, second.password);
    await page.goto('/mark-attendance?class_name=7');
    await page.getByRole('group', { name: 'Attendance of Vani Shared' }).waitFor();
    expect(await page.getByText(/waiting to be sent/).count()).toBe(0);
    const recordOf = async () =>
      (await api<HistoryRecord[]>(`/attendance/history?start_date=${today()}&end_date=${today()}`)).filter(
        (record) => record.student_id === student.id,
      );
    expect(await recordOf()).toEqual([]);

    // The first teacher signs in again: their marks go, as theirs.
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    await signIn(page, first.username, first.password);
    await expect
      .poll(async () => (await recordOf()).map((record) => `${record.status} by ${record.marked_by}`), {
        timeout: 20_000,
      })
      .toEqual(['late by Wafa First']);
    await context.close();
  });
});

function today(): string {
  return new Date().toLocaleDateString('en-CA');
}
