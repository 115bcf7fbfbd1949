/**
 * Why a register is read-only and why a queued mark was not saved come from the server in English
 * with a code and params beside them (ADR 036): in Hindi the console shows the code's Hindi text with
 * the answer's names and days, in English the server's words as answered.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MarkingScope, Roster } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { showLanguage } from '../../i18n';
import { formatDay, isoDaysAgo, todayIso } from '../../lib/dates';
import { fakeApi, renderPage, rosterEntry } from '../../testing';
import MarkAttendancePage from './mark-attendance-page';

const old = isoDaysAgo(5);
const teacherScope: MarkingScope = {
  restricted: true,
  classes: ['8'],
  any_class: false,
  days_back: 2,
  earliest_date: isoDaysAgo(2),
  today: todayIso(),
  cannot_mark_reason: null,
  cannot_mark: null,
};
const windowReason = `Teachers can mark attendance only from ${isoDaysAgo(2)} to ${todayIso()} (today and the 2 days before); an admin can mark earlier days.`;
/** Class 8 five days ago: outside the teacher's window, so read-only. */
const readOnlyRoster: Roster = {
  date: old,
  class_name: '8',
  can_mark: false,
  cannot_mark_reason: windowReason,
  cannot_mark: {
    code: 'attendance.teacher_window',
    params: { earliest: isoDaysAgo(2), today: todayIso(), days: 2 },
  },
  students: [rosterEntry({ student_id: 1, student_name: 'Asha Verma' })],
};
const approvedReason = 'Already approved by Ravi Kumar for 2 Mar 2026, as Absent: it was not changed.';

/** A register the teacher may mark, whose queued marks come back with Bala's refused as approved meanwhile. */
function refusingApi() {
  return fakeApi({
    'GET /api/v1/attendance/marking-scope': () => [200, teacherScope],
    'GET /api/v1/attendance/roster': () => [
      200,
      {
        ...readOnlyRoster,
        date: todayIso(),
        can_mark: true,
        cannot_mark_reason: null,
        cannot_mark: null,
        students: [
          rosterEntry({ student_id: 1, student_name: 'Asha Verma' }),
          rosterEntry({ student_id: 2, student_name: 'Bala Das' }),
        ],
      },
    ],
    'POST /api/v1/attendance/submissions': (call) => {
      const sent = call.body as { submission_id: string; date: string };
      return [
        200,
        {
          submission_id: sent.submission_id,
          class_name: '8',
          date: sent.date,
          saved_at: new Date().toISOString(),
          marked_count: 1,
          message: 'Attendance marked for 1 student(s); 1 mark could not be saved',
          message_words: { code: 'attendance.queued_marked_refused', params: { count: 1, refused: 1 } },
          refused: [
            {
              student_id: 2,
              student_name: 'Bala Das',
              reason: approvedReason,
              code: 'attendance.mark_already_approved_by',
              params: { name: 'Ravi Kumar', date: '2 Mar 2026', status: 'absent' },
            },
          ],
        },
      ];
    },
  });
}

afterEach(async () => {
  await showLanguage('en');
});

describe("the server's reasons on Mark Attendance", { timeout: 30_000 }, () => {
  it("shows a read-only register's reason in Hindi, its days written in Hindi", async () => {
    await showLanguage('hi');
    fakeApi({
      'GET /api/v1/attendance/marking-scope': () => [200, teacherScope],
      'GET /api/v1/attendance/roster': () => [200, readOnlyRoster],
    });
    renderPage(<MarkAttendancePage />, { path: `/mark-attendance?class_name=8&date=${old}`, signedInAs: 'teacher' });
    expect(
      await screen.findByText(
        `शिक्षक केवल ${formatDay(isoDaysAgo(2))} से ${formatDay(todayIso())} तक की उपस्थिति दर्ज कर सकते हैं (आज और उससे पहले के 2 दिन); पिछले दिनों की उपस्थिति एडमिन दर्ज कर सकते हैं।`,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(windowReason)).not.toBeInTheDocument();
  });

  it('shows the same reason in English as the server wrote it', async () => {
    fakeApi({
      'GET /api/v1/attendance/marking-scope': () => [200, teacherScope],
      'GET /api/v1/attendance/roster': () => [200, readOnlyRoster],
    });
    renderPage(<MarkAttendancePage />, { path: `/mark-attendance?class_name=8&date=${old}`, signedInAs: 'teacher' });
    expect(await screen.findByText(windowReason)).toBeInTheDocument();
  });

  it('shows why a teacher with no class can mark nothing in Hindi', async () => {
    await showLanguage('hi');
    fakeApi({
      'GET /api/v1/attendance/marking-scope': () => [
        200,
        {
          ...teacherScope,
          classes: [],
          cannot_mark_reason:
            'No class is assigned to you, so you cannot mark attendance. Ask an admin to assign your classes on the Teachers screen.',
          cannot_mark: { code: 'attendance.no_class_assigned', params: {} },
        },
      ],
    });
    renderPage(<MarkAttendancePage />, { path: '/mark-attendance?class_name=8', signedInAs: 'teacher' });
    expect(
      await screen.findByText(
        'आपको कोई कक्षा नहीं सौंपी गई है, इसलिए आप उपस्थिति दर्ज नहीं कर सकते। किसी एडमिन से शिक्षक स्क्रीन पर आपकी कक्षाएँ सौंपने को कहें।',
      ),
    ).toBeInTheDocument();
  });

  it('names a refused mark with its reason in Hindi, the status in the glossary word', async () => {
    await showLanguage('hi');
    refusingApi();
    const user = userEvent.setup();
    renderPage(<MarkAttendancePage />, { path: '/mark-attendance?class_name=8', signedInAs: 'teacher' });
    // Nobody is marked until the teacher says so (ADR 048): All Present, then Submit.
    await user.click(await screen.findByRole('button', { name: 'सभी को उपस्थित दर्ज करें' }));
    await user.click(screen.getByRole('button', { name: 'उपस्थिति जमा करें' }));
    const name = await screen.findByText('Bala Das', { selector: 'strong' });
    const item = name.closest('li') as HTMLElement;
    expect(item).toHaveTextContent(
      'Bala Das: Ravi Kumar ने 2 Mar 2026 की उपस्थिति पहले ही "अनुपस्थित" के रूप में स्वीकृत कर दी है: इसे बदला नहीं गया।',
    );
    expect(within(item).queryByText(/Already approved/)).not.toBeInTheDocument();
  });

  it('names a refused mark with the English reason in English', async () => {
    refusingApi();
    const user = userEvent.setup();
    renderPage(<MarkAttendancePage />, { path: '/mark-attendance?class_name=8', signedInAs: 'teacher' });
    await user.click(await screen.findByRole('button', { name: 'Mark All Present' }));
    await user.click(screen.getByRole('button', { name: 'Submit Attendance' }));
    const name = await screen.findByText('Bala Das', { selector: 'strong' });
    expect(name.closest('li')).toHaveTextContent(`Bala Das: ${approvedReason}`);
  });
});
