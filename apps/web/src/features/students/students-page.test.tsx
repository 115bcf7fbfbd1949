import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Role, Student, User } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '../../lib/toast';
import { AuthProvider } from '../auth/auth-provider';
import StudentsPage, { selectionSummary } from './students-page';

function makeStudents(count: number, fields: (i: number) => Partial<Student> = () => ({})): Student[] {
  return Array.from({ length: count }, (_, index) => {
    const id = index + 1;
    return {
      id,
      unique_id: `STU${String(id).padStart(4, '0')}`,
      full_name: `Student ${id}`,
      class_name: '7',
      parent_name: `Parent ${id}`,
      parent_phone: `+9198000${String(id).padStart(5, '0')}`,
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
      ...fields(id),
    };
  });
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** Signs in as `role` and answers the API from `students`; every call is recorded. */
function renderPage(role: Role, students: Student[], answers: Record<string, () => Response> = {}) {
  const user: User = {
    id: 1,
    username: role,
    full_name: role === 'admin' ? 'Administrator' : 'Tara Teacher',
    role,
    email: null,
    must_change_password: false,
  };
  localStorage.setItem('token', 'test-token');
  localStorage.setItem('user', JSON.stringify(user));
  const calls: Call[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const path = url.pathname.replace('/api/v1', '');
    calls.push({ method, path, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const answer = answers[`${method} ${path}`];
    if (answer) return answer();
    if (path === '/auth/me') return json(user);
    if (method === 'GET' && path === '/students/') return json(students);
    return json({ detail: 'Not found' }, 404);
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ToastProvider>
        <AuthProvider>
          <StudentsPage />
        </AuthProvider>
      </ToastProvider>
    </QueryClientProvider>,
  );
  return calls;
}

// MUI under jsdom is slow on a busy machine; these walk whole flows.
vi.setConfig({ testTimeout: 20_000 });
afterEach(() => vi.restoreAllMocks());

describe('the Students screen', () => {
  it('gives admins selection checkboxes and delete buttons', async () => {
    renderPage('admin', makeStudents(3));
    expect(await screen.findByText('Student 1')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select all matching students' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select Student 2' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete Student 2' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit Student 2' })).toBeInTheDocument();
    for (const header of ['Student', 'Student ID', 'Class', 'Parent Contact', 'Actions']) {
      expect(screen.getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
  });

  it('shows teachers no checkboxes and no delete controls, but lets them add and edit', async () => {
    renderPage('teacher', makeStudents(3));
    expect(await screen.findByText('Student 1')).toBeInTheDocument();
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit Student 2' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add Student' })).toBeInTheDocument();
  });

  it('shows Delete Selected (n) only while rows are selected', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage('admin', makeStudents(3));
    await screen.findByText('Student 1');
    expect(screen.queryByRole('button', { name: /Delete Selected/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Select Student 1' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Student 3' }));
    expect(screen.getByRole('button', { name: 'Delete Selected (2)' })).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Select Student 1' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Student 3' }));
    expect(screen.queryByRole('button', { name: /Delete Selected/ })).not.toBeInTheDocument();
  });

  it('selects every matching student across pages and deletes them after the confirmation', async () => {
    const user = userEvent.setup({ delay: null });
    const students = makeStudents(90, (id) => (id % 3 === 0 ? { class_name: '10', full_name: `Tenth ${id}` } : {}));
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const calls = renderPage('admin', students, {
      'POST /students/delete-multiple': () => json({ deleted_count: 30, message: 'Deleted' }),
    });
    await screen.findByText('Student 1');
    await user.type(screen.getByRole('searchbox', { name: 'Search students' }), 'tenth');
    await screen.findByText('Tenth 3');
    expect(screen.getAllByRole('row')).toHaveLength(26); // header and one page of 25

    await user.click(screen.getByRole('checkbox', { name: 'Select all matching students' }));
    expect(screen.getByRole('status')).toHaveTextContent('All 30 matching students selected');
    await user.click(screen.getByRole('button', { name: 'Delete Selected (30)' }));

    expect(confirm).toHaveBeenCalledWith('Are you sure you want to delete 30 student(s)?');
    expect(await screen.findByText('Successfully deleted 30 student(s).')).toBeInTheDocument();
    const sent = calls.find((call) => call.path === '/students/delete-multiple');
    expect(sent?.body).toEqual(students.filter((s) => s.class_name === '10').map((s) => s.id));
    await waitFor(() => expect(screen.queryByRole('button', { name: /Delete Selected/ })).not.toBeInTheDocument());
  });

  it('keeps the selection when the bulk delete fails, and shows the reason', async () => {
    const user = userEvent.setup({ delay: null });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderPage('admin', makeStudents(3), {
      'POST /students/delete-multiple': () => json({}, 500),
    });
    await screen.findByText('Student 1');
    await user.click(screen.getByRole('checkbox', { name: 'Select Student 2' }));
    await user.click(screen.getByRole('button', { name: 'Delete Selected (1)' }));
    expect(await screen.findByText('Failed to delete students')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete Selected (1)' })).toBeInTheDocument();
  });

  it('names the student in a single delete and does nothing when cancelled', async () => {
    const user = userEvent.setup({ delay: null });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const calls = renderPage('admin', makeStudents(2));
    await screen.findByText('Student 1');
    await user.click(screen.getByRole('button', { name: 'Delete Student 2' }));
    expect(confirm).toHaveBeenCalledWith('Are you sure you want to delete Student 2?');
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
  });

  it('gives teachers and admins a Parent Access action that opens the dialog for that student', async () => {
    const user = userEvent.setup({ delay: null });
    const [, second] = makeStudents(2);
    const calls = renderPage('teacher', makeStudents(2), {
      'GET /students/2/parent-access': () =>
        json({
          phone: second?.parent_phone,
          parent_name: 'Parent 2',
          children: [{ id: 2, unique_id: 'STU0002', full_name: 'Student 2', class_name: '7' }],
          has_code: false,
          issued_at: null,
          issued_by: null,
          last_sign_in_at: null,
          devices_with_notifications: 0,
        }),
    });
    await screen.findByText('Student 1');
    expect(screen.getByRole('button', { name: 'Parent access for Student 1' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Parent access for Student 2' }));
    const dialog = await screen.findByRole('dialog', { name: /Parent Access/ });
    expect(await within(dialog).findByText('Not issued yet')).toBeInTheDocument();
    expect(calls.some((call) => call.path === '/students/2/parent-access')).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('says No students yet when there are none', async () => {
    renderPage('admin', []);
    expect(await screen.findByText('No students yet')).toBeInTheDocument();
  });

  it('says No students found when the search matches nothing', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage('admin', makeStudents(2));
    await screen.findByText('Student 1');
    await user.type(screen.getByRole('searchbox', { name: 'Search students' }), 'zzz');
    expect(await screen.findByText('No students found')).toBeInTheDocument();
  });

  it('shows the fetch failure with the fallback text', async () => {
    renderPage('admin', [], { 'GET /students/': () => new Response('oops', { status: 500 }) });
    expect(await screen.findByText('Failed to fetch students')).toBeInTheDocument();
  });

  it('adds a student and says so', async () => {
    const user = userEvent.setup({ delay: null });
    const calls = renderPage('teacher', makeStudents(1), {
      'POST /students/': () => json(makeStudents(2)[1], 201),
    });
    await screen.findByText('Student 1');
    await user.click(screen.getByRole('button', { name: 'Add Student' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Student' });
    await user.type(within(dialog).getByRole('textbox', { name: /Full Name/ }), 'Ravi');
    await user.click(within(dialog).getByRole('combobox', { name: /Class/ }));
    await user.click(screen.getByRole('option', { name: '8' }));
    await user.type(within(dialog).getByRole('textbox', { name: /Parent Name/ }), 'Sunita');
    await user.type(within(dialog).getByRole('textbox', { name: /Parent Phone/ }), '+919812345678');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Student added successfully.')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      full_name: 'Ravi',
      class_name: '8',
      parent_name: 'Sunita',
      parent_phone: '+919812345678',
    });
  });
});

it('shows a failed add inside the dialog with the server detail, keeping the dialog open', async () => {
  const user = userEvent.setup({ delay: null });
  renderPage('admin', makeStudents(1), {
    'POST /students/': () => json({ detail: 'parent_phone: must include the country code, e.g. +919876543210' }, 422),
  });
  await screen.findByText('Student 1');
  await user.click(screen.getByRole('button', { name: 'Add Student' }));
  const dialog = screen.getByRole('dialog', { name: 'Add Student' });
  await user.type(within(dialog).getByRole('textbox', { name: /Full Name/ }), 'Ravi');
  await user.click(within(dialog).getByRole('combobox', { name: /Class/ }));
  await user.click(screen.getByRole('option', { name: '8' }));
  await user.type(within(dialog).getByRole('textbox', { name: /Parent Name/ }), 'Sunita');
  await user.type(within(dialog).getByRole('textbox', { name: /Parent Phone/ }), '98123');
  await user.click(within(dialog).getByRole('button', { name: 'Add' }));
  expect(await within(dialog).findByRole('alert')).toHaveTextContent(
    'parent_phone: must include the country code, e.g. +919876543210',
  );
});

describe('the selection summary', () => {
  it('says when every matching student is selected, and counts those the search hides', () => {
    expect(selectionSummary(1234, { total: 1234, selected: 1234, searching: true })).toBe(
      'All 1,234 matching students selected',
    );
    expect(selectionSummary(60, { total: 60, selected: 60, searching: false })).toBe('All 60 students selected');
    expect(selectionSummary(1, { total: 5, selected: 1, searching: false })).toBe('1 student selected');
    expect(selectionSummary(5, { total: 10, selected: 2, searching: true })).toBe(
      '5 students selected (3 not shown by the search)',
    );
  });
});
