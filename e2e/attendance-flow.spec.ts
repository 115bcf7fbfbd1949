import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { api, createTeacherAccount, expectAccessible, signedInPage, uniquePhone, useBrowser } from './support/browser';

const { browser } = useBrowser();
/** Letters of its own for each try: a second try (after a timeout) must not find the first try's students. */
let tries = 0;
const tryTag = () =>
  `${String(process.pid).replace(/\d/g, (digit) => 'abcdefghij'[Number(digit)] ?? '')}${'xyzw'[tries++ % 4]}`;

describe('a day of attendance: the teacher marks, the admin approves, history exports it', () => {
  it('goes from marking to an exported CSV', async () => {
    const tag = tryTag();
    const bilalName = `Bilal Shaikh ${tag}`;
    const names = [`Aditi Rao ${tag}`, bilalName, `=cmd Injection ${tag}`];
    for (const full_name of names) {
      await api('/students/', {
        json: { full_name, class_name: '9', parent_name: 'Parent', parent_phone: uniquePhone() },
      });
    }
    // Other browser tests may share class 9 on this server: count what the class holds now.
    const students = await api<{ class_name: string }[]>('/students/');
    const inClass = students.filter((student) => student.class_name === '9').length;
    const teacher = await createTeacherAccount({ first_name: 'Kiran', last_name: 'Mehta' }, 'kestrel-lantern-31');

    // The teacher marks class 9: nobody is marked until she says so (ADR 048): All Present, one absent.
    const marking = await signedInPage(browser(), teacher, { width: 390, height: 844 });
    await marking.page.goto('/mark-attendance?class_name=9');
    // Their own class only (ADR 019): the list offers class 9 and nothing else.
    await marking.page.getByText('You can mark attendance for your class 9,').waitFor();
    await marking.page.getByRole('combobox', { name: 'Class' }).click();
    expect(await marking.page.getByRole('option').allTextContents()).toEqual(['Class 9']);
    await marking.page.keyboard.press('Escape');
    // Students another file marked today are not counted as not marked: the server says how many are left.
    const notMarked = await api<{ classes: { class_name: string; not_marked: number }[] }>('/attendance/not-marked');
    const left = notMarked.classes.find((item) => item.class_name === '9')?.not_marked ?? 0;
    await marking.page.getByText(`Not marked: ${left}`, { exact: true }).waitFor();
    await marking.page.getByRole('button', { name: 'Mark All Present' }).click();
    const bilal = marking.page.getByRole('group', { name: `Attendance of ${bilalName}` });
    await bilal.getByRole('button', { name: 'Absent' }).click();
    await expectAccessible(marking.page);
    await marking.page.getByRole('button', { name: 'Submit Attendance' }).click();
    await marking.page.getByText(`Attendance marked for ${inClass} student(s)`).waitFor();
    await marking.context.close();

    // The admin sees them pending, approves them all.
    const { context, page } = await signedInPage(browser());
    await page.goto('/attendance');
    await page.getByText(bilalName).waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Select All', exact: true }).click();
    const pending = await api<unknown[]>(
      `/attendance/pending-approval?attendance_date=${new Date().toLocaleDateString('en-CA')}`,
    );
    await page.getByRole('button', { name: `Approve Attendance (${pending.length})` }).click();
    await page.getByText(`Successfully approved ${pending.length} attendance record(s).`).waitFor();
    await page.getByText('No Pending Attendance Records').waitFor();

    // History shows them; the export carries them, neutralised where a cell could be a formula.
    await page.goto('/attendance-history');
    await page.getByText(bilalName).waitFor();
    await expectAccessible(page);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^attendance_history_\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await download.path()) as string, 'utf8');
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const lines = csv.slice(1).trim().split('\r\n');
    expect(lines[0]).toBe('"Student Name","Student ID","Class","Date","Status","Marked By","Approved By","Remarks"');
    const bilalLine = lines.find((line) => line.includes(bilalName)) as string;
    expect(bilalLine).toMatch(/"Absent","Kiran Mehta","Administrator"/);
    expect(csv).toContain(`"'=cmd Injection ${tag}"`);
    await context.close();
  });
});
