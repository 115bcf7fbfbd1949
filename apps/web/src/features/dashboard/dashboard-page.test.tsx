import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DashboardSummary, MyClasses, Role } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { card, dashboardSummary, fakeApi, renderPage } from '../../testing';
import DashboardPage from './dashboard-page';

const summary = dashboardSummary();

/** The dashboard for a signed-in `role`; the summary is answered when `answer` settles (at once by default). */
function renderAs(role: Role, answer: () => Promise<DashboardSummary> = async () => summary) {
  fakeApi({ 'GET /dashboard/summary': async () => [200, await answer()] });
  return renderPage(<DashboardPage />, { signedInAs: role });
}

afterEach(() => vi.restoreAllMocks());

describe('Dashboard', () => {
  it('shows each figure on its card, the attendance rate with a percent sign and messages_sent', async () => {
    renderAs('admin');
    expect(await within(card('Total Students')).findByText('120')).toBeInTheDocument();
    expect(within(card('Total Students')).getByText('Active enrolled')).toBeInTheDocument();
    expect(within(card('Teachers')).getByText('9')).toBeInTheDocument();
    expect(within(card('Teachers')).getByText('Active staff')).toBeInTheDocument();
    expect(within(card('Pending Approval')).getByText('17')).toBeInTheDocument();
    expect(within(card('Pending Approval')).getByText('Attendance records')).toBeInTheDocument();
    expect(within(card('Messages Sent')).getByText('43')).toBeInTheDocument();
    expect(within(card('Messages Sent')).getByText('This month')).toBeInTheDocument();
    expect(within(card('Attendance Rate')).getByText('92.5%')).toBeInTheDocument();
    expect(within(card('Attendance Rate')).getByText('This month avg')).toBeInTheDocument();
    expect(within(card('Active Classes')).getByText('4')).toBeInTheDocument();
    // Nobody to call: no line about it.
    expect(screen.queryByText(/not reached by any message/)).not.toBeInTheDocument();
  });

  it('says how many families no message reached, with one tap to the call list', async () => {
    fakeApi({
      'GET /dashboard/summary': () => [200, dashboardSummary({ not_reached: 3 })],
      'GET /dashboard/my-classes': () => [200, myClasses],
    });
    renderPage(<DashboardPage />, { signedInAs: 'teacher' });
    expect(
      await screen.findByText('3 families were not reached by any message, or asked to be called.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the call list' })).toHaveAttribute(
      'href',
      '/communications?tab=call-list',
    );
  });

  it('shows skeletons, not made-up numbers, until the summary arrives', async () => {
    let release: (value: DashboardSummary) => void = () => undefined;
    const pending = new Promise<DashboardSummary>((resolve) => {
      release = resolve;
    });
    renderAs('admin', () => pending);
    for (const label of ['Total Students', 'Teachers', 'Pending Approval', 'Messages Sent', 'Attendance Rate']) {
      expect(screen.getByLabelText(`Loading ${label}`)).toBeInTheDocument();
    }
    expect(screen.getByLabelText('Loading Active Classes')).toBeInTheDocument();
    for (const placeholder of ['23', '145', '92%', '8']) expect(screen.queryByText(placeholder)).toBeNull();
    release(summary);
    expect(await screen.findByText('92.5%')).toBeInTheDocument();
    expect(screen.queryByLabelText('Loading Total Students')).toBeNull();
  });

  it('lists the classes with students not marked today, each linking to Mark Attendance', async () => {
    renderAs('admin');
    const link = await screen.findByRole('link', { name: /Class 8/ });
    expect(link).toHaveAttribute('href', '/mark-attendance?class_name=8');
    expect(link).toHaveTextContent('31 students not marked · Mark attendance');
  });

  it('lists a partly marked class with how many are not marked: never "every class marked" (ADR 048)', async () => {
    renderAs('admin', async () => ({
      ...summary,
      classes_without_attendance: [],
      classes_not_marked: [{ class_name: '8', students: 34, not_marked: 9 }],
    }));
    const link = await screen.findByRole('link', { name: /Class 8/ });
    expect(link).toHaveTextContent('9 students not marked');
    expect(screen.queryByText('Attendance has been marked for every class today.')).not.toBeInTheDocument();
  });

  it('says so when every student of every class is marked', async () => {
    renderAs('admin', async () => ({ ...summary, classes_without_attendance: [], classes_not_marked: [] }));
    expect(await screen.findByText('Attendance has been marked for every class today.')).toBeInTheDocument();
  });

  it('greets the user by name and places what the app gives it beside the greeting', async () => {
    fakeApi({ 'GET /dashboard/summary': () => [200, summary], 'GET /dashboard/my-classes': () => [200, myClasses] });
    renderPage(<DashboardPage actions={<button type="button">Placed by the app</button>} />, { signedInAs: 'teacher' });
    expect(await screen.findByText('Welcome back, Asha Rao!')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Placed by the app' })).toBeInTheDocument();
  });

  it('only logs a failed fetch', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderAs('admin', async () => {
      throw new Error('down');
    });
    await vi.waitFor(() => expect(log).toHaveBeenCalled());
    expect(screen.queryByRole('alert')).toBeNull();
    expect(within(card('Total Students')).getByText('—')).toBeInTheDocument();
  });

  it('says figures that never loaded could not be loaded, and Retry fetches them', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let up = false;
    fakeApi({ 'GET /dashboard/summary': () => (up ? [200, summary] : [502, { detail: 'Bad gateway' }]) });
    renderPage(<DashboardPage />, { signedInAs: 'admin' });
    expect(
      await screen.findByText('The dashboard could not be loaded.', undefined, { timeout: 8000 }),
    ).toBeInTheDocument();
    expect(screen.queryByText('Attendance has been marked for every class today.')).toBeNull();
    up = true;
    // The fee cards (admins) have their own Retry: this one is the unmarked classes'.
    const unmarked = screen.getByText('Attendance not marked today').closest('.MuiPaper-root') as HTMLElement;
    await userEvent.setup().click(within(unmarked).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('link', { name: /Class 8/ })).toBeInTheDocument();
    expect(within(card('Total Students')).getByText('120')).toBeInTheDocument();
  });

  it('keeps the figures it showed when a refresh fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let up = true;
    fakeApi({ 'GET /dashboard/summary': () => (up ? [200, summary] : [504, { detail: 'Gateway timeout' }]) });
    const { client } = renderPage(<DashboardPage />, { signedInAs: 'admin' });
    expect(await within(card('Total Students')).findByText('120')).toBeInTheDocument();
    up = false;
    await client.refetchQueries({ type: 'active' });
    await vi.waitFor(() => expect(client.getQueryState(['dashboard', 'summary'])?.status).toBe('error'));
    expect(within(card('Total Students')).getByText('120')).toBeInTheDocument();
    expect(screen.queryByText('The dashboard could not be loaded.')).toBeNull();
  });
});

const myClasses: MyClasses = {
  date: '2026-11-22',
  classes: [
    {
      class_name: '7',
      students: 30,
      marked: 0,
      pending: 0,
      state: 'not_marked',
      register_url: '/mark-attendance?class_name=7&date=2026-11-22',
    },
    {
      class_name: '9',
      students: 30,
      marked: 28,
      pending: 28,
      state: 'marked',
      register_url: '/mark-attendance?class_name=9&date=2026-11-22',
    },
    {
      class_name: '10',
      students: 12,
      marked: 12,
      pending: 0,
      state: 'approved',
      register_url: '/mark-attendance?class_name=10&date=2026-11-22',
    },
  ],
  reminders: [
    {
      class_name: '7',
      date: '2026-11-22',
      text: 'Class 7 has no attendance marked today',
      reminded_at: '2026-11-22T10:00:04.000+05:30',
      register_url: '/mark-attendance?class_name=7&date=2026-11-22',
    },
  ],
};

/** Is `first` before `second` in the page, as a reader (and a screen reader) meets them? */
function precedes(first: Element, second: Element): boolean {
  return Boolean(first.compareDocumentPosition(second) & Node.DOCUMENT_POSITION_FOLLOWING);
}

describe("A teacher's dashboard", () => {
  it("leads with today's reminder, then the teacher's classes with their state, each one tap from its register; the figures come after", async () => {
    const { calls } = fakeApi({
      'GET /dashboard/summary': () => [200, summary],
      'GET /dashboard/my-classes': () => [200, myClasses],
    });
    renderPage(<DashboardPage />, { signedInAs: 'teacher' });

    const reminder = await screen.findByText('Class 7 has no attendance marked today');
    const open = screen.getByRole('link', { name: 'Mark attendance for Class 7' });
    expect(open).toHaveAttribute('href', '/mark-attendance?class_name=7&date=2026-11-22');

    const heading = screen.getByRole('heading', { name: 'Your classes today' });
    const classes = within(screen.getByRole('region', { name: 'Your classes today' }));
    expect(classes.getByRole('link', { name: /^Class 7: Not marked · 30 students/ })).toHaveAttribute(
      'href',
      '/mark-attendance?class_name=7&date=2026-11-22',
    );
    expect(classes.getByRole('link', { name: /^Class 9: Marked 28 of 30 · waiting for approval/ })).toHaveAttribute(
      'href',
      '/mark-attendance?class_name=9&date=2026-11-22',
    );
    expect(classes.getByRole('link', { name: /^Class 10: Approved · 12 of 12 marked/ })).toBeInTheDocument();

    const figures = await within(card('Total Students')).findByText('120');
    expect(precedes(reminder, heading)).toBe(true);
    expect(precedes(heading, figures)).toBe(true);
    expect(calls.filter((call) => call.path === '/dashboard/my-classes')).toHaveLength(1);
  });

  it('names a class the centre labelled by its label, never "Class Morning batch" (ADR 043)', async () => {
    const centreClass = (id: number, value: string, label: string) => ({
      id,
      value,
      label,
      section: null,
      display_label: label,
      sort_order: id,
      archived: false,
      archived_at: null,
      in_use: { students: 1, teachers: 1, attendance_records: 0 },
    });
    const batch = {
      ...myClasses.classes[0],
      class_name: 'Morning batch',
      register_url: '/mark-attendance?class_name=Morning+batch',
    };
    fakeApi({
      'GET /dashboard/summary': () => [
        200,
        dashboardSummary({ classes_not_marked: [{ class_name: 'Morning batch', students: 4, not_marked: 4 }] }),
      ],
      'GET /dashboard/my-classes': () => [
        200,
        {
          ...myClasses,
          classes: [batch, myClasses.classes[1]],
          reminders: [
            {
              ...myClasses.reminders[0],
              class_name: 'Morning batch',
              text: 'Morning batch has no attendance marked today',
            },
          ],
        },
      ],
      'GET /classes': () => [200, [centreClass(1, '9', 'Class 9'), centreClass(2, 'Morning batch', 'Morning batch')]],
    });
    renderPage(<DashboardPage />, { signedInAs: 'teacher' });
    const classes = within(await screen.findByRole('region', { name: 'Your classes today' }));
    expect(await classes.findByRole('link', { name: /^Morning batch: Not marked/ })).toBeInTheDocument();
    expect(classes.getByText('Morning batch')).toBeInTheDocument();
    expect(classes.getByRole('link', { name: /^Class 9: Marked 28 of 30/ })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Mark attendance for Morning batch' })).toBeInTheDocument();
    expect(screen.queryByText(/Class Morning batch/)).toBeNull();
  });

  it('shows no reminder card when none is due, and says so when no class is assigned', async () => {
    fakeApi({
      'GET /dashboard/summary': () => [200, summary],
      'GET /dashboard/my-classes': () => [200, { ...myClasses, classes: [], reminders: [] }],
    });
    renderPage(<DashboardPage />, { signedInAs: 'teacher' });
    expect(
      await screen.findByText('No class is assigned to you yet. An admin assigns classes on the Teachers screen.'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/has no attendance marked today/)).toBeNull();
  });

  it('keeps the figures when the classes cannot be loaded, and says the classes will show again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    fakeApi({
      'GET /dashboard/summary': () => [200, summary],
      'GET /dashboard/my-classes': () => [500, { detail: 'Internal server error' }],
    });
    renderPage(<DashboardPage />, { signedInAs: 'teacher' });
    expect(
      await screen.findByText('Your classes could not be loaded. They show again shortly.', undefined, {
        timeout: 8000,
      }),
    ).toBeInTheDocument();
    expect(within(card('Total Students')).getByText('120')).toBeInTheDocument();
  });
});

describe("An admin's dashboard", () => {
  it('is unchanged: no classes card, no reminder, and no call for them', async () => {
    const { calls } = fakeApi({
      'GET /dashboard/summary': () => [200, summary],
      'GET /dashboard/my-classes': () => [200, myClasses],
    });
    renderPage(<DashboardPage />, { signedInAs: 'admin' });
    expect(await within(card('Total Students')).findByText('120')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Your classes today' })).toBeNull();
    expect(screen.queryByText(/has no attendance marked today/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Allow notifications on this device' })).toBeNull();
    expect(calls.filter((call) => call.path === '/dashboard/my-classes')).toEqual([]);
  });
});
