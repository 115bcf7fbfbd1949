import { screen, within } from '@testing-library/react';
import type { MarkingScope, Roster } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { showLanguage } from '../../i18n';
import { formatDay, isoDaysAgo, todayIso } from '../../lib/dates';
import { fakeApi, renderPage, rosterEntry } from '../../testing';
import MarkAttendancePage from './mark-attendance-page';

const yesterday = isoDaysAgo(1);
const teacherScope: MarkingScope = {
  restricted: true,
  classes: ['8'],
  any_class: false,
  days_back: 2,
  earliest_date: isoDaysAgo(2),
  today: todayIso(),
  cannot_mark_reason: null,
};
const roster: Roster = {
  date: yesterday,
  class_name: '8',
  can_mark: true,
  cannot_mark_reason: null,
  students: [
    rosterEntry({ student_id: 1, student_name: 'Asha Verma' }),
    rosterEntry({ student_id: 2, student_name: 'Bala Das', attendance_id: 20, status: 'absent', remarks: 'Fever' }),
  ],
};

afterEach(async () => {
  await showLanguage('en');
});

describe('Mark Attendance in Hindi', { timeout: 30_000 }, () => {
  it("shows the register's heading, statuses, buttons, the teacher's window and the date picker in Hindi", async () => {
    await showLanguage('hi');
    fakeApi({
      'GET /api/v1/attendance/marking-scope': () => [200, teacherScope],
      'GET /api/v1/attendance/roster': () => [200, roster],
    });
    renderPage(<MarkAttendancePage />, {
      path: `/mark-attendance?class_name=8&date=${yesterday}`,
      signedInAs: 'teacher',
    });

    const row = (await screen.findByText('Asha Verma')).closest('li') as HTMLElement;
    // Names stay as written; the glossary's words around them.
    expect(screen.getByRole('heading', { name: `कक्षा 8, ${formatDay(yesterday)}` })).toBeInTheDocument();
    expect(formatDay(yesterday)).toMatch(/^\d{1,2} \p{L}/u);
    // Not marked, in the glossary's words, and counted apart: never shown as present (ADR 048).
    expect(within(row).getByRole('button', { name: 'उपस्थित' })).toHaveAttribute('aria-pressed', 'false');
    expect(within(row).getByRole('button', { name: 'देरी से उपस्थित' })).toBeInTheDocument();
    expect(within(row).getByText('दर्ज नहीं')).toBeInTheDocument();
    expect(screen.getByText('दर्ज नहीं: 1')).toBeInTheDocument();
    expect(screen.getByText('उपस्थित: 0')).toBeInTheDocument();
    expect(within(row).getByRole('textbox', { name: 'Asha Verma के लिए टिप्पणी' })).toBeInTheDocument();
    expect(screen.getByText('अनुपस्थित: 1')).toBeInTheDocument();
    expect(screen.getByText('2 विद्यार्थी')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'उपस्थिति जमा करें' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'सभी को उपस्थित दर्ज करें' })).toBeEnabled();
    expect(
      screen.getByText(
        `आप अपनी कक्षा 8 की उपस्थिति ${formatDay(isoDaysAgo(2))} से आज तक (2 दिन पीछे तक) दर्ज कर सकते हैं। पिछले दिनों की उपस्थिति एडमिन दर्ज कर सकते हैं।`,
      ),
    ).toBeInTheDocument();
    // The date picker's own words.
    expect(screen.getByRole('button', { name: /^तारीख़ चुनें/ })).toBeInTheDocument();
    expect(screen.queryByText('Submit Attendance')).not.toBeInTheDocument();
  });
});
