import { describe, expect, it } from 'vitest';
import { ADMIN, api, expectAccessible, newPage, signedInPage, uniquePhone, useBrowser } from './support/browser';

const { browser } = useBrowser();

interface RosterLine {
  student_id: number;
  leave: null | { id: number; status: string; reason: string; from_date: string; to_date: string };
}

/** Today on this machine's calendar, which the server shares (same TZ). */
function localToday(): string {
  const now = new Date();
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

describe('leave told in advance', () => {
  it('a parent asks in the parent app, an admin approves it on the Leave screen, and the register carries it', async () => {
    const child = await api<{ id: number; full_name: string }>('/students/', {
      json: { full_name: 'Rohan Kapoor', class_name: '8', parent_name: 'Anjali Kapoor', parent_phone: uniquePhone() },
    });
    const issued = await api<{ code: string; phone: string }>(`/students/${child.id}/parent-access`, {
      method: 'POST',
    });
    const today = localToday();

    // The parent, on a phone.
    const parent = await newPage(browser(), { width: 390, height: 844 });
    await parent.page.goto(`/parent/#phone=${encodeURIComponent(issued.phone)}&code=${issued.code}`);
    await parent.page.getByRole('heading', { name: /^Inbox/ }).waitFor();
    await parent.page.getByRole('button', { name: 'Leave' }).click();
    await parent.page.getByRole('heading', { name: 'Ask for leave' }).waitFor();
    await parent.page.getByText('You have not asked for leave yet.').waitFor();
    await expectAccessible(parent.page);
    // From and to start at today: one day away.
    expect(await parent.page.getByLabel('First day away').inputValue()).toBe(today);
    await parent.page.getByLabel('Reason').fill('Grandmother’s surgery');
    await parent.page.getByRole('button', { name: 'Send to the centre' }).click();
    await parent.page
      .getByRole('status')
      .getByText(/The centre will approve or decline leave for Rohan Kapoor/)
      .waitFor();
    const requests = parent.page.getByRole('list', { name: 'Your requests' });
    await requests.getByText('Waiting').waitFor();
    await expectAccessible(parent.page);

    // The register shows it waiting before anyone decides.
    const roster = async () =>
      (await api<{ students: RosterLine[] }>(`/attendance/roster?class_name=8&date=${today}`)).students.find(
        (line) => line.student_id === child.id,
      )?.leave;
    expect(await roster()).toMatchObject({ status: 'pending', reason: 'Grandmother’s surgery', from_date: today });

    // The admin: the badge, the list at both widths, the decision.
    const staff = await signedInPage(browser(), ADMIN, { width: 1366, height: 900 });
    await staff.page.goto('/leave');
    await staff.page.getByRole('heading', { level: 1, name: 'Leave' }).waitFor();
    const row = staff.page.getByRole('row', { name: /Rohan Kapoor/ });
    await row.waitFor();
    expect(
      await staff.page
        .getByRole('navigation', { name: 'Main menu' })
        .getByLabel(/\d+ waiting/)
        .count(),
    ).toBe(1);
    await expectAccessible(staff.page);
    await staff.page.setViewportSize({ width: 390, height: 844 });
    // The table gives way to one card a request: wait for the change before reaching into it.
    await expect.poll(() => staff.page.getByRole('table').count()).toBe(0);
    await staff.page.getByRole('button', { name: 'Approve leave for Rohan Kapoor' }).scrollIntoViewIfNeeded();
    await expectAccessible(staff.page);
    await staff.page.setViewportSize({ width: 1366, height: 900 });
    await staff.page.getByRole('table').waitFor();

    await staff.page.getByRole('button', { name: 'Approve leave for Rohan Kapoor' }).click();
    const dialog = staff.page.getByRole('dialog', { name: 'Approve leave for Rohan Kapoor?' });
    await dialog.getByText(/no absence alert will be sent/).waitFor();
    await expectAccessible(staff.page);
    await dialog.getByRole('button', { name: 'Approve leave' }).click();
    await staff.page.getByText('Leave for Rohan Kapoor approved.').waitFor();
    await row.waitFor({ state: 'detached' });

    expect(await roster()).toMatchObject({ status: 'approved', reason: 'Grandmother’s surgery' });

    // The parent is told in the inbox, and sees who approved it.
    await parent.page.getByRole('button', { name: 'Inbox' }).click();
    await parent.page.getByText('Leave approved').first().waitFor();
    await parent.page.getByRole('button', { name: 'Leave', exact: true }).click();
    await requests.getByText('Approved', { exact: true }).waitFor();
    await requests.getByText(/Approved by Administrator on/).waitFor();
    await expectAccessible(parent.page);

    await staff.context.close();
    await parent.context.close();
  });
});
