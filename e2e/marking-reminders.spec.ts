import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  baseUrl,
  createTeacherAccount,
  expectAccessible,
  signedInPage,
  uniquePhone,
  useBrowser,
} from './support/browser';

const { browser } = useBrowser();

interface Reminders {
  marking_reminders: boolean;
  reminder_time: string;
}

let saved: Reminders | undefined;

beforeAll(async () => {
  saved = await api<Reminders>('/settings/reminders');
});

afterAll(async () => {
  if (saved) await api('/settings/reminders', { method: 'PUT', json: saved });
});

/** A class nobody has marked today (other specs share the server and may have marked some). */
async function unmarkedClass(): Promise<string> {
  const students = await api<{ class_name: string }[]>('/students/');
  const summary = await api<{ classes_without_attendance: { class_name: string }[] }>('/dashboard/summary');
  const withStudents = new Set(students.map((student) => student.class_name));
  const without = new Set(summary.classes_without_attendance.map((item) => item.class_name));
  const found = ['7', '8', '9', '10'].find((name) => !withStudents.has(name) || without.has(name));
  if (!found) throw new Error('every class is marked today: no class left to be reminded of');
  return found;
}

describe('a teacher reminded of a class not marked, on a phone', () => {
  it('sees the reminder first on the dashboard (axe), opens the register in one tap, and the card goes once the class is marked', async () => {
    const className = await unmarkedClass();
    const teacher = await createTeacherAccount(
      { first_name: 'Rekha', last_name: 'Menon', classes_assigned: [className] },
      'lantern-harbour-27',
    );
    const pupils = await Promise.all(
      ['Ira', 'Kabir'].map((first) =>
        api<{ id: number }>('/students/', {
          json: {
            full_name: `${first} Reminded`,
            class_name: className,
            parent_name: 'Parent',
            parent_phone: uniquePhone(),
          },
        }),
      ),
    );
    // Due at once, whatever the server's clock says: a changed setting wakes the server's reminder round.
    // Put back afterwards for the other specs.
    await api('/settings/reminders', { method: 'PUT', json: { marking_reminders: true, reminder_time: '00:00' } });
    const { context, page } = await signedInPage(browser(), teacher, { width: 390, height: 844 });

    const reminder = page.getByText(`Class ${className} has no attendance marked today`);
    await expect
      .poll(
        async () => {
          await page.goto('/dashboard');
          await page.getByRole('heading', { name: 'Your classes today' }).waitFor();
          return reminder.isVisible();
        },
        { timeout: 45_000, interval: 1_000 },
      )
      .toBe(true);
    const classes = page.getByRole('region', { name: 'Your classes today' });
    // Other specs on this server may have added students to the class before this one.
    const inClass = (await api<{ class_name: string }[]>('/students/')).filter(
      (student) => student.class_name === className,
    ).length;
    await classes
      .getByRole('link', { name: new RegExp(`^Class ${className}: Not marked · ${inClass} students`) })
      .waitFor();
    // The reminder and the classes come before the centre's figures.
    const reminderTop = (await reminder.boundingBox())?.y ?? Number.POSITIVE_INFINITY;
    const figuresTop = (await page.getByText('Total Students').boundingBox())?.y ?? 0;
    expect(reminderTop).toBeLessThan(figuresTop);
    await page.waitForLoadState('networkidle');
    await expectAccessible(page);

    await page.getByRole('link', { name: `Mark attendance for Class ${className}` }).click();
    await page.waitForURL(`**/mark-attendance?class_name=${className}&date=*`);
    const date = new URL(page.url()).searchParams.get('date') as string;
    expect(date).toMatch(/^\d{4}-\d\d-\d\d$/);

    // Marked (here through the API, as the register's own tests mark): the card goes, the class shows it.
    const login = await fetch(`${baseUrl()}/api/v1/auth/login`, {
      method: 'POST',
      body: new URLSearchParams({ username: teacher.username, password: teacher.password }),
    }).then((response) => response.json() as Promise<{ access_token: string }>);
    await api('/attendance/mark', {
      token: login.access_token,
      json: { date, records: pupils.map((pupil) => ({ student_id: pupil.id, status: 'present' })) },
    });
    await page.goto('/dashboard');
    await classes
      .getByRole('link', { name: new RegExp(`^Class ${className}: Marked 2 of ${inClass} · waiting for approval`) })
      .waitFor();
    expect(await reminder.count()).toBe(0);
    await context.close();
  });
});
