import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MarkingScope, Roster } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isoDaysAgo } from '../../lib/dates';
import { fakeApi, markingScope, renderAtWidth, renderPage, rosterEntry } from '../../testing';
import MarkAttendancePage from './mark-attendance-page';

/** The register tells the truth (issue 28, item 8; ADR 048): no mark is never shown or saved as Present. */
const yesterday = isoDaysAgo(1);
const scope: MarkingScope = markingScope();
const markedAt = new Date(2026, 10, 22, 10, 42).toISOString();
const roster: Roster = {
  date: yesterday,
  class_name: '8',
  can_mark: true,
  cannot_mark_reason: null,
  last_marked: { by: 'Priya Sharma', at: markedAt },
  students: [
    rosterEntry({ student_id: 1, student_name: 'Asha Verma' }),
    rosterEntry({
      student_id: 2,
      student_name: 'Bala Das',
      attendance_id: 20,
      status: 'absent',
      marked_by: 'Priya Sharma',
      marked_at: markedAt,
    }),
    rosterEntry({ student_id: 3, student_name: 'Chitra Rao' }),
    rosterEntry({ student_id: 4, student_name: 'Dev Nair' }),
  ],
};

function row(name: string): HTMLElement {
  return screen.getByText(name).closest('li') as HTMLElement;
}

function answered(body: unknown) {
  const sent = body as { submission_id: string; date: string; records: unknown[] };
  return {
    submission_id: sent.submission_id,
    class_name: '8',
    date: sent.date,
    saved_at: new Date().toISOString(),
    marked_count: sent.records.length,
    message: `Attendance marked for ${sent.records.length} student(s)`,
    refused: [],
  };
}

function api() {
  return fakeApi({
    'GET /api/v1/attendance/marking-scope': () => [200, scope],
    'GET /api/v1/attendance/roster': () => [200, roster],
    'POST /api/v1/attendance/submissions': (call) => [200, answered(call.body)],
  });
}

const open = () =>
  renderPage(<MarkAttendancePage />, { path: `/mark-attendance?class_name=8&date=${yesterday}`, signedInAs: 'admin' });

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the register tells the truth', { timeout: 30_000 }, () => {
  it.each([
    ['a phone', 390],
    ['a wide screen', 1280],
  ])('on %s, shows each unmarked student as Not marked and counts them apart from Present', async (_, width) => {
    renderAtWidth(width);
    api();
    open();
    await screen.findByText('Asha Verma', {}, { timeout: 10_000 });
    for (const name of ['Asha Verma', 'Chitra Rao', 'Dev Nair']) {
      expect(within(row(name)).getByText('Not marked')).toBeInTheDocument();
      expect(within(row(name)).queryByRole('button', { pressed: true })).not.toBeInTheDocument();
    }
    expect(within(row('Bala Das')).queryByText('Not marked')).not.toBeInTheDocument();
    expect(screen.getByText('Present: 0')).toBeInTheDocument();
    expect(screen.getByText('Absent: 1')).toBeInTheDocument();
    expect(screen.getByText('Not marked: 3')).toBeInTheDocument();
    expect(screen.getByText('Last marked by Priya Sharma at 10:42')).toBeInTheDocument();

    // Marking one takes it out of "Not marked"; All Present marks the rest.
    const user = userEvent.setup();
    await user.click(within(row('Asha Verma')).getByRole('button', { name: 'Present' }));
    expect(within(row('Asha Verma')).queryByText('Not marked')).not.toBeInTheDocument();
    expect(screen.getByText('Present: 1')).toBeInTheDocument();
    expect(screen.getByText('Not marked: 2')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Mark All Present' }));
    expect(screen.getByText('Present: 4')).toBeInTheDocument();
    expect(screen.queryByText(/^Not marked/)).not.toBeInTheDocument();
  });

  it('saves the marked students only, and says how many are still not marked', async () => {
    const calls = api();
    const user = userEvent.setup();
    open();
    await screen.findByText('Asha Verma', {}, { timeout: 10_000 });
    await user.click(within(row('Asha Verma')).getByRole('button', { name: 'Late' }));
    await user.click(screen.getByRole('button', { name: 'Submit Attendance' }));
    expect(
      await screen.findByText(
        'Attendance marked for 2 student(s) 2 students are not marked and were not saved: mark them and submit again.',
      ),
    ).toBeInTheDocument();
    const sent = calls.calls.find((call) => call.method === 'POST')?.body as { records: unknown[] };
    expect(sent.records).toEqual([
      { student_id: 1, status: 'late', remarks: null },
      { student_id: 2, status: 'absent', remarks: null },
    ]);
  });

  it('saves nothing when nobody is marked, and says how to start', async () => {
    const calls = fakeApi({
      'GET /api/v1/attendance/marking-scope': () => [200, scope],
      'GET /api/v1/attendance/roster': () => [
        200,
        { ...roster, last_marked: null, students: roster.students.filter((student) => student.status === null) },
      ],
    });
    const user = userEvent.setup();
    open();
    await screen.findByText('Asha Verma', {}, { timeout: 10_000 });
    expect(screen.queryByText(/^Last marked by/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Submit Attendance' }));
    expect(
      await screen.findByText('No student is marked yet: mark each student, or tap All Present first.'),
    ).toBeInTheDocument();
    expect(calls.calls.some((call) => call.method === 'POST')).toBe(false);
  });
});
