import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AttendanceHistoryPage, AttendanceRecord } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isoDaysAgo, todayIso } from '../../lib/dates';
import { deferred, fakeApi, optionTexts, record, renderPage } from '../../testing';
import HistoryPage from './history-page';
import { filterRecords } from './record-filters';

const PAGE_PATH = '/api/v1/attendance/history/page';
const FULL_PATH = '/api/v1/attendance/history';

const history: AttendanceRecord[] = [
  record({
    id: 1,
    student_name: 'Asha Verma',
    student_unique_id: 'STU0001',
    class_name: '7',
    status: 'present',
    date: '2026-03-02',
    approved_by: 'Administrator',
  }),
  record({
    id: 2,
    student_name: 'Bala Das',
    student_unique_id: 'STU0002',
    class_name: '7',
    status: 'absent',
    remarks: 'Fever',
    parent_reason: 'Sick',
  }),
  record({ id: 3, student_name: 'Chitra Rao', student_unique_id: 'STU0003', class_name: '9', status: 'late' }),
  record({ id: 4, student_name: 'Dev Singh', student_unique_id: 'STU0004', class_name: '10', status: 'leave' }),
  record({
    id: 5,
    student_name: 'Asha Verma',
    student_unique_id: 'STU0001',
    class_name: '7',
    status: 'present',
    date: '2026-03-01',
  }),
];

/** 60 pupils in class 7 and 60 in class 9, a quarter of them absent: three pages of 25 per class. */
const many: AttendanceRecord[] = Array.from({ length: 120 }, (_, index) =>
  record({
    id: 1000 + index,
    student_name: `Pupil ${index}`,
    student_unique_id: `STU${1000 + index}`,
    class_name: index < 60 ? '7' : '9',
    status: index % 4 === 0 ? 'absent' : 'present',
  }),
);

/** What the server answers for `/attendance/history/page`: the records filtered, counted and paged. */
function serverPage(records: readonly AttendanceRecord[], url: URL): [number, AttendanceHistoryPage] {
  const query = url.searchParams;
  const matching = filterRecords(records, {
    search: query.get('search') ?? '',
    status: (query.get('status') ?? '') as '',
    className: (query.get('class_name') ?? '') as '',
  });
  const counts = { present: 0, absent: 0, late: 0, leave: 0 };
  for (const row of matching) counts[row.status] += 1;
  const limit = Number(query.get('limit') ?? 25);
  const offset = Number(query.get('offset') ?? 0);
  return [
    200,
    {
      period: { start_date: query.get('start_date') ?? '', end_date: query.get('end_date') ?? '' },
      total: matching.length,
      counts,
      records: matching.slice(offset, offset + limit),
    },
  ];
}

function serving(records: readonly AttendanceRecord[]) {
  return fakeApi({
    [`GET ${PAGE_PATH}`]: ({ url }) => serverPage(records, url),
    [`GET ${FULL_PATH}`]: () => [200, records],
  });
}

type Calls = ReturnType<typeof fakeApi>['calls'];

function pageCalls(calls: Calls): URLSearchParams[] {
  return calls.filter((call) => call.url.pathname === PAGE_PATH).map((call) => call.url.searchParams);
}

function lastPageCall(calls: Calls): Record<string, string> {
  return Object.fromEntries(pageCalls(calls).at(-1) ?? []);
}

/** A summary card's figure; the card's label is a paragraph, unlike the Status field showing the same word. */
function card(label: string): string | null | undefined {
  return screen.getByText(label, { selector: 'p' }).nextElementSibling?.textContent;
}

function bodyRows(): HTMLElement[] {
  const table = screen.getByRole('table', { name: 'Attendance history' });
  return within(table).getAllByRole('row').slice(1);
}

function searchBox(): HTMLInputElement {
  return screen.getByRole('searchbox', { name: 'Search by name or student ID' });
}

/** Serves the 120 pupils and goes to the second page: a new filter must bring the first page back. */
async function onSecondPage() {
  const api = serving(many);
  const user = userEvent.setup();
  renderPage(<HistoryPage />);
  await screen.findByText('Pupil 0');
  await user.click(screen.getByRole('button', { name: 'Go to next page' }));
  await screen.findByText('Pupil 25');
  return { api, user };
}

afterEach(() => vi.restoreAllMocks());

// jsdom draws MUI slowly, and test files share two cores: generous time per test.
describe('Attendance History screen', { timeout: 30_000 }, () => {
  it('loads the first page of the last 7 days and shows the server counts in the cards', async () => {
    const api = fakeApi({
      [`GET ${PAGE_PATH}`]: () => [
        200,
        {
          period: { start_date: isoDaysAgo(7), end_date: todayIso() },
          // Counts of the whole range, not of the page: the cards show what the server says.
          total: 4800,
          counts: { present: 4000, absent: 500, late: 200, leave: 100 },
          records: history,
        },
      ],
    });
    renderPage(<HistoryPage />);
    expect(screen.getByText('Loading attendance records...')).toBeInTheDocument();
    expect(await screen.findByText('Bala Das')).toBeInTheDocument();
    // The parent's one-tap reply to the alert, under the remarks (the CSV keeps the spec's columns).
    expect(screen.getByText('Parent: Sick')).toBeInTheDocument();

    expect(api.calls).toHaveLength(1);
    expect(lastPageCall(api.calls)).toEqual({
      start_date: isoDaysAgo(7),
      end_date: todayIso(),
      limit: '25',
      offset: '0',
    });

    expect(card('Total Records')).toBe('4800');
    expect(card('Present')).toBe('4000');
    expect(card('Absent')).toBe('500');
    expect(card('Late/Leave')).toBe('300');
    expect(screen.getByText('1–25 of 4,800')).toBeInTheDocument();

    const headers = within(screen.getByRole('table'))
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual([
      'Student',
      'Student ID',
      'Class',
      'Date',
      'Status',
      'Marked By',
      'Approved By',
      'Remarks',
    ]);
    expect(bodyRows()).toHaveLength(5);
    const first = bodyRows()[0] as HTMLElement;
    expect(within(first).getByText('02 Mar 2026')).toBeInTheDocument();
    expect(within(first).getByText('PRESENT')).toBeInTheDocument();
    expect(within(first).getByText('Administrator')).toBeInTheDocument();
    expect(within(first).getByText('-')).toBeInTheDocument();
    expect(within(bodyRows()[1] as HTMLElement).getByText('Pending')).toBeInTheDocument();
  });

  it('asks the server for the next page and for more rows per page', async () => {
    const api = serving(many);
    const user = userEvent.setup();
    renderPage(<HistoryPage />);
    await screen.findByText('Pupil 0');
    expect(bodyRows()).toHaveLength(25);
    expect(screen.getByText('1–25 of 120')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(await screen.findByText('Pupil 25')).toBeInTheDocument();
    expect(lastPageCall(api.calls)).toMatchObject({ limit: '25', offset: '25' });
    expect(screen.queryByText('Pupil 0')).not.toBeInTheDocument();
    expect(screen.getByText('26–50 of 120')).toBeInTheDocument();
    expect(card('Total Records')).toBe('120');

    await user.click(screen.getByRole('combobox', { name: /rows per page/i }));
    await user.click(screen.getByRole('option', { name: '50' }));
    expect(await screen.findByText('1–50 of 120')).toBeInTheDocument();
    expect(lastPageCall(api.calls)).toMatchObject({ limit: '50', offset: '0' });
    expect(bodyRows()).toHaveLength(50);
  });

  it('sends the class and status filters and goes back to the first page', async () => {
    const { api, user } = await onSecondPage();

    await user.click(screen.getByRole('combobox', { name: 'Class' }));
    expect(optionTexts()).toEqual(['All', 'Class 7', 'Class 8', 'Class 9', 'Class 10']);
    await user.click(screen.getByRole('option', { name: 'Class 9' }));
    expect(await screen.findByText('Pupil 60')).toBeInTheDocument();
    expect(lastPageCall(api.calls)).toMatchObject({ class_name: '9', offset: '0' });
    expect(screen.getByText('1–25 of 60')).toBeInTheDocument();
    expect(card('Total Records')).toBe('60');
    expect(card('Absent')).toBe('15');

    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    await screen.findByText('Pupil 85');
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    expect(optionTexts()).toEqual(['All', 'Present', 'Absent', 'Late', 'Leave']);
    await user.click(screen.getByRole('option', { name: 'Absent' }));
    await waitFor(() => expect(card('Total Records')).toBe('15'));
    expect(lastPageCall(api.calls)).toMatchObject({ class_name: '9', status: 'absent', offset: '0' });
    expect(bodyRows()).toHaveLength(15);
    expect(card('Present')).toBe('0');
    expect(card('Absent')).toBe('15');

    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(screen.getByRole('option', { name: 'Leave' }));
    expect(await screen.findByText('No attendance records found for the selected filters.')).toBeInTheDocument();
    expect(lastPageCall(api.calls)).toMatchObject({ class_name: '9', status: 'leave', offset: '0' });
    expect(card('Total Records')).toBe('0');
  });

  it('sends the search once typing pauses, and goes back to the first page', async () => {
    const { api } = await onSecondPage();
    const before = api.calls.length;

    // Three keystrokes in one tick: the field shows each at once, the server hears only the last.
    fireEvent.change(searchBox(), { target: { value: 'p' } });
    fireEvent.change(searchBox(), { target: { value: 'pu' } });
    fireEvent.change(searchBox(), { target: { value: '  STU105 ' } });
    expect(searchBox().value).toBe('  STU105 ');
    expect(api.calls).toHaveLength(before);

    expect(await screen.findByText('Pupil 50')).toBeInTheDocument();
    const searches = pageCalls(api.calls).map((query) => query.get('search'));
    expect(searches.filter((search) => search !== null)).toEqual(['STU105']);
    expect(lastPageCall(api.calls)).toMatchObject({ search: 'STU105', limit: '25', offset: '0' });
    expect(bodyRows()).toHaveLength(10);
    expect(card('Total Records')).toBe('10');
    expect(screen.queryByRole('button', { name: 'Go to previous page' })).toBeDisabled();
  });

  it('exports every filtered record of the range, not just the page, as attendance_history_<today>.csv', async () => {
    const api = serving(history);
    let saved: Blob | undefined;
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      saved = blob as Blob;
      return 'blob:history';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    let filename = '';
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      filename = this.download;
    });
    const user = userEvent.setup();
    renderPage(<HistoryPage />);
    await screen.findByText('Bala Das');
    await user.type(searchBox(), 'asha');
    await waitFor(() => expect(card('Total Records')).toBe('2'));
    await user.click(screen.getByRole('button', { name: 'Export' }));

    await waitFor(() => expect(filename).toBe(`attendance_history_${todayIso()}.csv`));
    const full = api.calls.filter((call) => call.url.pathname === FULL_PATH);
    expect(full).toHaveLength(1);
    expect(Object.fromEntries(full[0]?.url.searchParams ?? [])).toEqual({
      start_date: isoDaysAgo(7),
      end_date: todayIso(),
    });
    const text = new TextDecoder().decode(await (saved as Blob).arrayBuffer());
    expect(text.split('\r\n')).toEqual([
      '"Student Name","Student ID","Class","Date","Status","Marked By","Approved By","Remarks"',
      '"Asha Verma","STU0001","7","2026-03-02","Present","Ravi Kumar","Administrator",""',
      '"Asha Verma","STU0001","7","2026-03-01","Present","Ravi Kumar","",""',
      '',
    ]);
    expect(screen.getByRole('button', { name: 'Export' })).toBeEnabled();
  });

  it('exports what the fields say even before the search has reached the server', async () => {
    serving(history);
    let saved: Blob | undefined;
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      saved = blob as Blob;
      return 'blob:history';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderPage(<HistoryPage />);
    await screen.findByText('Bala Das');
    fireEvent.change(searchBox(), { target: { value: 'bala' } });
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));

    await waitFor(() => expect(saved).toBeDefined());
    const text = new TextDecoder().decode(await (saved as Blob).arrayBuffer());
    expect(text.split('\r\n').slice(1)).toEqual([
      '"Bala Das","STU0002","7","2026-03-02","Absent","Ravi Kumar","","Fever"',
      '',
    ]);
  });

  it('disables Export while the range is fetched, and shows why an export failed', async () => {
    const range = deferred();
    const api = fakeApi({
      [`GET ${PAGE_PATH}`]: ({ url }) => serverPage(history, url),
      [`GET ${FULL_PATH}`]: () => range.promise,
    });
    const user = userEvent.setup();
    renderPage(<HistoryPage />);
    await screen.findByText('Bala Das');
    await user.click(screen.getByRole('button', { name: 'Export' }));

    await waitFor(() => expect(screen.getByRole('button', { name: 'Export' })).toBeDisabled());
    expect(api.calls.some((call) => call.url.pathname === FULL_PATH && call.url.searchParams.has('start_date'))).toBe(
      true,
    );
    range.release([400, { detail: 'The range holds too many records to export' }]);
    expect(await screen.findByRole('alert')).toHaveTextContent('The range holds too many records to export');
    expect(screen.getByRole('button', { name: 'Export' })).toBeEnabled();
  });

  it('falls back to its own words when a failed export has no detail', async () => {
    fakeApi({
      [`GET ${PAGE_PATH}`]: ({ url }) => serverPage(history, url),
      [`GET ${FULL_PATH}`]: () => [502, {}],
    });
    const user = userEvent.setup();
    renderPage(<HistoryPage />);
    await screen.findByText('Bala Das');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to export attendance history');
  });

  it('alerts No data to export without fetching the range when the server counts none', async () => {
    const api = serving([]);
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const user = userEvent.setup();
    renderPage(<HistoryPage />);
    expect(await screen.findByText('No attendance records found for the selected filters.')).toBeInTheDocument();
    expect(card('Total Records')).toBe('0');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    expect(alert).toHaveBeenCalledWith('No data to export');
    expect(api.calls.map((call) => call.url.pathname)).toEqual([PAGE_PATH]);
  });

  it('says records that never loaded could not be loaded, not that there are none, and Retry fetches them', async () => {
    let up = false;
    fakeApi({
      [`GET ${PAGE_PATH}`]: ({ url }) => (up ? serverPage(history, url) : [500, { detail: 'Internal server error' }]),
    });
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const user = userEvent.setup();
    renderPage(<HistoryPage />);
    expect(await screen.findByText('The attendance records could not be loaded.')).toBeInTheDocument();
    await waitFor(() => expect(log).toHaveBeenCalledWith('attendance-history', expect.anything()));
    expect(screen.queryByText('No attendance records found for the selected filters.')).not.toBeInTheDocument();
    expect(card('Total Records')).toBe('—');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    up = true;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Bala Das')).toBeInTheDocument();
    expect(card('Total Records')).toBe(String(history.length));
  });

  it('keeps the rows it showed when fetching them again fails', async () => {
    let up = true;
    fakeApi({
      [`GET ${PAGE_PATH}`]: ({ url }) => (up ? serverPage(history, url) : [503, { detail: 'Service unavailable' }]),
    });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { client } = renderPage(<HistoryPage />);
    await screen.findByText('Bala Das');
    up = false;
    await client.refetchQueries({ type: 'active' });
    await waitFor(() => expect(client.getQueryCache().findAll({ type: 'active' })[0]?.state.status).toBe('error'));
    expect(screen.getByText('Bala Das')).toBeInTheDocument();
    expect(card('Total Records')).toBe(String(history.length));
    expect(screen.queryByText('The attendance records could not be loaded.')).not.toBeInTheDocument();
  });

  it('says what is wrong with a range and asks the server nothing for it', async () => {
    const api = serving(history);
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const user = userEvent.setup();
    renderPage(<HistoryPage />);
    await screen.findByText('Bala Das');
    const asked = api.calls.length;

    // A year earlier: the end now comes before the start.
    await user.click(within(screen.getByRole('group', { name: 'End Date' })).getByRole('spinbutton', { name: 'Year' }));
    await user.keyboard('{ArrowDown}');
    expect(await screen.findByText('End Date must not be before Start Date')).toBeInTheDocument();
    expect(screen.getByText('No attendance records found for the selected filters.')).toBeInTheDocument();
    expect(card('Total Records')).toBe('0');
    await user.keyboard('{ArrowUp}');
    await screen.findByText('Bala Das');
    expect(screen.queryByText('End Date must not be before Start Date')).not.toBeInTheDocument();

    // A year and a week: longer than the server allows.
    await user.click(
      within(screen.getByRole('group', { name: 'Start Date' })).getByRole('spinbutton', { name: 'Year' }),
    );
    await user.keyboard('{ArrowDown}');
    expect(await screen.findByText('Choose at most 366 days')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Export' }));
    expect(alert).toHaveBeenCalledWith('No data to export');

    const datesAsked = pageCalls(api.calls).map((query) => `${query.get('start_date')}..${query.get('end_date')}`);
    expect(new Set(datesAsked)).toEqual(new Set([`${isoDaysAgo(7)}..${todayIso()}`]));
    expect(api.calls.slice(asked).every((call) => call.url.pathname === PAGE_PATH)).toBe(true);
  });
});
