import { describe, expect, it } from 'vitest';
import { ADMIN, acceptDialogs, api, expectAccessible, signedInPage, uniquePhone, useBrowser } from './support/browser';

const { browser } = useBrowser();

interface StudentAnswer {
  id: number;
  left_on: string | null;
}

describe('students who leave', () => {
  for (const viewport of [
    { width: 1366, height: 900 },
    { width: 390, height: 844 },
  ]) {
    it(`an admin marks a student as left, finds them among those who left, and restores them (${viewport.width} px)`, async () => {
      const name = `Leaving Pupil ${viewport.width}`;
      const created = await api<StudentAnswer>('/students/', {
        json: { full_name: name, class_name: '9', parent_name: 'A Parent', parent_phone: uniquePhone() },
      });
      // Below the medium breakpoint the list is cards (ADR 033): a card a student instead of a row.
      const item = viewport.width < 900 ? 'listitem' : 'row';
      const { context, page } = await signedInPage(browser(), ADMIN, viewport);
      const confirmations = acceptDialogs(page);
      await page.goto('/students');
      await page.getByRole('heading', { level: 1, name: 'Students' }).waitFor();
      await page.getByRole('searchbox', { name: 'Search students' }).fill(name);
      await page.getByRole('button', { name: `Mark ${name} as left` }).click();
      const dialog = page.getByRole('dialog', { name: `Mark ${name} as left?` });
      await dialog.waitFor();
      await expectAccessible(page);
      await dialog.getByRole('button', { name: 'Mark as left' }).click();
      await page.getByText(`${name} marked as left.`).waitFor();
      await page.getByRole(item, { name: new RegExp(name) }).waitFor({ state: 'detached' });
      expect((await api<StudentAnswer>(`/students/${created.id}`)).left_on).not.toBeNull();

      await page.getByRole('button', { name: 'Students who left' }).click();
      await page.getByRole('spinbutton', { name: 'Remove personal data after (months)' }).waitFor();
      await page.getByRole('searchbox', { name: 'Search students' }).fill(name);
      const row = page.getByRole(item, { name: new RegExp(name) });
      await row.waitFor();
      await page.waitForLoadState('networkidle');
      await expectAccessible(page);

      await row.getByRole('button', { name: `Restore ${name}` }).click();
      await page.getByText(`${name} restored.`).waitFor();
      expect(confirmations.at(-1)).toContain(`Restore ${name}?`);
      expect((await api<StudentAnswer>(`/students/${created.id}`)).left_on).toBeNull();
      await context.close();
    });
  }
});
