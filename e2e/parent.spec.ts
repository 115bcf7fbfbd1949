import { gzipSync } from 'node:zlib';
import type { Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, baseUrl, expectAccessible, newPage, uniquePhone, useBrowser } from './support/browser';

const { browser } = useBrowser();
const PHONE_VIEWPORT = { width: 390, height: 844 };
const PARENT_JS_BUDGET_KB = 85;
const SESSION_ENDED = /the access code was changed or your session ended/;

interface Student {
  id: number;
  full_name: string;
  parent_phone: string;
}

async function addStudent(fullName: string, className: string): Promise<Student> {
  return api<Student>('/students/', {
    json: {
      full_name: fullName,
      class_name: className,
      parent_name: `Parent of ${fullName}`,
      parent_phone: uniquePhone(),
    },
  });
}

/** Marks the student's record for a day and approves it, as staff do. */
async function approvedAttendance(studentId: number, date: string, status: string, remarks: string | null) {
  await api('/attendance/mark', { json: { date, records: [{ student_id: studentId, status, remarks }] } });
  const pending = await api<{ id: number; student_id: number }[]>('/attendance/pending-approval');
  const ids = pending.filter((record) => record.student_id === studentId).map((record) => record.id);
  await api('/attendance/approve', { json: { attendance_ids: ids } });
}

function isoDaysAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}

async function callAs(token: string, path: string): Promise<number> {
  const response = await fetch(`${baseUrl()}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
  return response.status;
}

describe('the parent app at /parent', () => {
  it('a parent signs in from the link, reads the message staff sent, and sees attendance', async () => {
    const child = await addStudent('Meera Iyer', '9');
    const otherFamily = await addStudent('Kabir Singh', '9');
    await approvedAttendance(child.id, isoDaysAgo(2), 'late', 'Bus was late');
    const issued = await api<{ code: string; phone: string }>(`/students/${child.id}/parent-access`, {
      method: 'POST',
    });

    const { context, page } = await newPage(browser(), PHONE_VIEWPORT);
    const scripts: Response[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response);
    });
    await page.goto(`/parent/#phone=${encodeURIComponent(issued.phone)}&code=${issued.code}`);
    await page.getByRole('heading', { name: /^Inbox/ }).waitFor();
    // The code never stays in the address bar or the history.
    expect(new URL(page.url()).hash).toBe('');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await expectAccessible(page);

    // A parent downloads the parent bundle only: small, and none of the console (MUI).
    let total = 0;
    for (const response of scripts) {
      const body = await response.body();
      expect(body.toString(), new URL(response.url()).pathname).not.toMatch(/MuiButton|@mui\//);
      total += gzipSync(body, { level: 9 }).length;
    }
    // The size budget holds for a production build (React's development build, which a build run
    // with NODE_ENV=test gives, is twice the size).
    const developmentBuild = scripts.some((response) => response.url().includes('jsx-dev-runtime'));
    if (!developmentBuild) expect(total / 1024).toBeLessThanOrEqual(PARENT_JS_BUDGET_KB);

    // Staff send a message; the parent's inbox shows it, unread, and opening it reports it delivered.
    const subject = `Exam timetable ${Date.now()}`;
    await api('/messages/send-to-parents', {
      json: { subject, message: 'The mid-term exams start on Monday.\nPlease check the timetable.', recipients: '9' },
    });
    await page.getByRole('button', { name: 'Refresh' }).click();
    const item = page.getByRole('button', { name: new RegExp(subject) });
    await item.waitFor();
    expect(await item.getAttribute('class')).toContain('unread');
    await item.click();
    await page.getByRole('heading', { name: subject }).waitFor();
    await page.getByText('Please check the timetable.').waitFor();
    await expectAccessible(page);
    await expect
      .poll(async () => {
        const history =
          await api<{ subject: string; recipient: string; delivery_status: string }[]>('/communications/history');
        return history.find((row) => row.subject === subject && row.recipient === issued.phone)?.delivery_status;
      })
      .toBe('read');
    await page.getByRole('button', { name: /Back to inbox/ }).click();
    expect(await item.getAttribute('class')).not.toContain('unread');
    // A notification tap opens /parent/#message=<id>: straight to that message.
    const sent = await api<{ id: number; subject: string; recipient: string }[]>('/communications/history');
    const row = sent.find((candidate) => candidate.subject === subject && candidate.recipient === issued.phone);
    await page.goto(`/parent/#message=${row?.id}`);
    await page.getByRole('heading', { name: subject }).waitFor();
    await page.getByRole('button', { name: /Back to inbox/ }).click();

    // My children: the approved record, in the console's colour for late.
    await page.getByRole('button', { name: 'My children' }).click();
    const days = page.getByRole('list', { name: `Days for ${child.full_name}` });
    await days.getByText('Bus was late').waitFor();
    const late = days.getByText('Late', { exact: true });
    expect(await late.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(100, 46, 4)');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Notifications' }).waitFor();
    await expectAccessible(page);

    // The parent token reaches only the parent API, and only this family's children.
    const token = await page.evaluate(() => localStorage.getItem('parent_token'));
    expect(token).toBeTruthy();
    expect(await callAs(token as string, '/students/')).toBe(403);
    expect(await callAs(token as string, '/communications/history')).toBe(403);
    expect(await callAs(token as string, `/parent/children/${child.id}/attendance?days=30`)).toBe(200);
    expect(await callAs(token as string, `/parent/children/${otherFamily.id}/attendance?days=30`)).toBe(404);

    // A new code signs this device out at its next call.
    await api(`/students/${child.id}/parent-access`, { method: 'POST' });
    await page.getByRole('button', { name: /^Inbox/ }).click();
    await page.getByText(SESSION_ENDED).waitFor();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('parent_token'))).toBeNull();
    await expectAccessible(page);
    await context.close();
  });

  it('is installable: manifest, icons and a service worker for /parent/', async () => {
    const manifest = await fetch(`${baseUrl()}/parent/manifest.webmanifest`).then(
      (response) => response.json() as Promise<{ start_url: string; scope: string; icons: { src: string }[] }>,
    );
    expect(manifest).toMatchObject({ start_url: '/parent/', scope: '/parent/', display: 'standalone' });
    for (const icon of manifest.icons) {
      const response = await fetch(`${baseUrl()}${icon.src}`);
      expect(response.headers.get('content-type'), icon.src).toBe('image/png');
    }
    const worker = await fetch(`${baseUrl()}/parent/sw.js`);
    expect(worker.headers.get('content-type')).toMatch(/javascript/);
    expect(worker.headers.get('cache-control')).toBe('no-cache');
    // Any other path under /parent is the app; the console's paths stay the console's.
    const bare = await fetch(`${baseUrl()}/parent`, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([302, '/parent/']);
    const deep = await fetch(`${baseUrl()}/parent/inbox`).then((response) => response.text());
    expect(deep).toContain('TuitionDesk for parents');
    expect(await fetch(`${baseUrl()}/students`).then((response) => response.text())).not.toContain('for parents');

    const { context, page } = await newPage(browser(), PHONE_VIEWPORT);
    await page.goto('/parent/');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await expectAccessible(page);
    const scope = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return registration.scope;
    });
    expect(scope).toBe(`${baseUrl()}/parent/`);
    // The wrong code: the server's words, on the page.
    await page.getByLabel('Phone number').fill('+919000000000');
    await page.getByLabel('Access code').fill('ABCD-2345');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Phone number or access code is incorrect' }).waitFor();
    await context.close();
  });

  it('its service worker shows a push as a notification, confirms the receipt and starts offline', async () => {
    const { context, page } = await newPage(browser(), PHONE_VIEWPORT);
    await context.grantPermissions(['notifications'], { origin: baseUrl() });
    const receipts: string[] = [];
    context.on('request', (request) => {
      if (request.url().endsWith('/api/v1/parent/receipts')) receipts.push(request.postData() ?? '');
    });
    await page.goto('/parent/');
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));

    // What the push service would hand the browser (the payload after decryption).
    const cdp = await context.newCDPSession(page);
    const registrationId = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => {
        const found = event.registrations.find((registration) => registration.scopeURL.endsWith('/parent/'));
        if (found) resolve(found.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    const payload = {
      message_id: 987654,
      title: 'Holiday on Monday',
      body: 'The centre is closed on Monday.',
      sent_at: new Date().toISOString(),
      receipt: 'receipt-from-the-payload',
    };
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: baseUrl(),
      registrationId: await registrationId,
      data: JSON.stringify(payload),
    });
    await expect
      .poll(() =>
        page.evaluate(async () =>
          (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
            title: n.title,
            body: n.body,
            tag: n.tag,
          })),
        ),
      )
      .toEqual([{ title: payload.title, body: payload.body, tag: String(payload.message_id) }]);
    await expect.poll(() => receipts).toEqual([JSON.stringify({ receipt: payload.receipt })]);

    // The app shell is cached: the app opens without a network.
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await context.close();
  });
});
