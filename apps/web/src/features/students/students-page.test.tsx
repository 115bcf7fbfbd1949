import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Role, Student } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FakeRoute, fakeApi, json, listOf, renderPage, student } from '../../testing';
import StudentsPage from './students-page';

/** Signs in as `role`, serves `students` and the routes given; returns the calls the page made. */
function openStudents(role: Role, students: Student[], routes: Record<string, FakeRoute> = {}) {
  const { calls } = fakeApi({ 'GET /students/': () => [200, students], ...routes });
  renderPage(<StudentsPage />, { signedInAs: role });
  return calls;
}

type User = ReturnType<typeof userEvent.setup>;

/** Fills Add Student: a name, class 8, a parent and the phone given. */
async function fillNewStudent(user: User, dialog: HTMLElement, phone: string) {
  await user.type(within(dialog).getByRole('textbox', { name: /Full Name/ }), 'Ravi');
  await user.click(within(dialog).getByRole('combobox', { name: /Class/ }));
  await user.click(screen.getByRole('option', { name: '8' }));
  await user.type(within(dialog).getByRole('textbox', { name: /Parent Name/ }), 'Sunita');
  await user.type(within(dialog).getByRole('textbox', { name: /Parent Phone/ }), phone);
}

// MUI under jsdom is slow on a busy machine; these walk whole flows.
afterEach(() => vi.restoreAllMocks());

describe('the Students screen', () => {
  it('gives admins selection checkboxes and delete buttons', async () => {
    openStudents('admin', listOf(3, student));
    expect(await screen.findByText('Student 1')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select all matching students' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select Student 2' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete Student 2' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit Student 2' })).toBeInTheDocument();
    for (const header of ['Student', 'Student ID', 'Class', 'Parent Contact', 'Actions']) {
      expect(screen.getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    const row = screen.getByRole('row', { name: /Student 2/ });
    for (const text of ['STU0002', 'Class 7', 'Parent 2', '+919800000002']) {
      expect(within(row).getByText(text)).toBeInTheDocument();
    }
    expect(screen.getByText('3 students')).toBeInTheDocument();
  });

  it('shows teachers no checkboxes and no delete controls, but lets them add and edit', async () => {
    openStudents('teacher', listOf(3, student));
    expect(await screen.findByText('Student 1')).toBeInTheDocument();
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit Student 2' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add Student' })).toBeInTheDocument();
  });

  it('shows Delete Selected (n) only while rows are selected', async () => {
    const user = userEvent.setup({ delay: null });
    openStudents('admin', listOf(3, student));
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
    const students = listOf(90, (id) =>
      student(id, id % 3 === 0 ? { class_name: '10', full_name: `Tenth ${id}` } : {}),
    );
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const calls = openStudents('admin', students, {
      'POST /students/delete-multiple': () => [200, { deleted_count: 30, message: 'Deleted' }],
    });
    await screen.findByText('Student 1');
    await user.type(screen.getByRole('searchbox', { name: 'Search students' }), 'tenth');
    await screen.findByText('Tenth 3');
    expect(screen.getAllByRole('row')).toHaveLength(26); // header and one page of 25
    expect(screen.getByText('30 students of 90')).toBeInTheDocument();

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
    openStudents('admin', listOf(3, student), { 'POST /students/delete-multiple': () => [500, {}] });
    await screen.findByText('Student 1');
    await user.click(screen.getByRole('checkbox', { name: 'Select Student 2' }));
    await user.click(screen.getByRole('button', { name: 'Delete Selected (1)' }));
    expect(await screen.findByText('Failed to delete students')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete Selected (1)' })).toBeInTheDocument();
  });

  it('names the student in a single delete and does nothing when cancelled', async () => {
    const user = userEvent.setup({ delay: null });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const calls = openStudents('admin', listOf(2, student));
    await screen.findByText('Student 1');
    await user.click(screen.getByRole('button', { name: 'Delete Student 2' }));
    expect(confirm).toHaveBeenCalledWith('Are you sure you want to delete Student 2?');
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
  });

  it('deletes one student after the confirmation and says so, or says why not', async () => {
    const user = userEvent.setup({ delay: null });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const calls = openStudents('admin', listOf(2, student), {
      'DELETE /students/2': () => [200, { message: 'ok' }],
      'DELETE /students/1': () => [404, { detail: 'Student not found' }],
    });
    await user.click(await screen.findByRole('button', { name: 'Delete Student 2' }));
    expect(await screen.findByText('Student deleted successfully.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete Student 1' }));
    expect(await screen.findByText('Student not found')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual([
      '/students/2',
      '/students/1',
    ]);
  });

  it('offers no Parent Access action of its own: the app places it', async () => {
    openStudents('teacher', listOf(2, student));
    await screen.findByText('Student 1');
    expect(screen.queryByRole('button', { name: /Parent access/ })).not.toBeInTheDocument();
  });

  it('says No students yet when there are none', async () => {
    openStudents('admin', []);
    expect(await screen.findByText('No students yet')).toBeInTheDocument();
    expect(screen.getByText('Click Add Student to add the first one; they will be listed here.')).toBeInTheDocument();
  });

  it('says No students found when the search matches nothing', async () => {
    const user = userEvent.setup({ delay: null });
    openStudents('admin', listOf(2, student));
    await screen.findByText('Student 1');
    await user.type(screen.getByRole('searchbox', { name: 'Search students' }), 'zzz');
    expect(await screen.findByText('No students found')).toBeInTheDocument();
    expect(
      screen.getByText('No student matches your search. Try a name, student ID, class, parent name or phone.'),
    ).toBeInTheDocument();
  });

  it('shows the fetch failure with the fallback text', async () => {
    openStudents('admin', [], { 'GET /students/': () => new Response('oops', { status: 500 }) });
    expect(await screen.findByText('Failed to fetch students')).toBeInTheDocument();
  });

  it('adds a student and says so', async () => {
    const user = userEvent.setup({ delay: null });
    const calls = openStudents('teacher', listOf(1, student), { 'POST /students/': () => [201, student(2)] });
    await screen.findByText('Student 1');
    await user.click(screen.getByRole('button', { name: 'Add Student' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Student' });
    await fillNewStudent(user, dialog, '+919812345678');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Student added successfully.')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      full_name: 'Ravi',
      class_name: '8',
      parent_name: 'Sunita',
      parent_phone: '+919812345678',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("edits a student: sends the whole edited object (the family's consent and language only when changed) and says so", async () => {
    const user = userEvent.setup({ delay: null });
    const [first] = listOf(1, student);
    const calls = openStudents('teacher', [first as Student], { 'PUT /students/1': ({ body }) => [200, body] });
    await user.click(await screen.findByRole('button', { name: 'Edit Student 1' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Student' });
    const name = within(dialog).getByRole('textbox', { name: /Full Name/ });
    await user.clear(name);
    await user.type(name, 'Asha Rao');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Student updated successfully.')).toBeInTheDocument();
    const { parent_whatsapp_opt_in: _consent, parent_language: _language, ...record } = first as Student;
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ ...record, full_name: 'Asha Rao' });
  });
});

it('shows a refused phone on the Parent Phone field, in the words the server chose, keeping the dialog open', async () => {
  const user = userEvent.setup({ delay: null });
  const words =
    'Enter the phone number with 10 digits (this one has 5), or with its country code, e.g. +91 98123 45670';
  openStudents('admin', listOf(1, student), {
    'POST /students/': () => json({ detail: `parent_phone: ${words}` }, 422),
    'GET /settings/phones': () => [200, { default_country_code: '+91' }],
  });
  await screen.findByText('Student 1');
  await user.click(screen.getByRole('button', { name: 'Add Student' }));
  const dialog = screen.getByRole('dialog', { name: 'Add Student' });
  const phone = within(dialog).getByRole('textbox', { name: /Parent Phone/ });
  expect(await within(dialog).findByText('Without a country code, +91 is added, e.g. 98123 45670')).toBeInTheDocument();
  await fillNewStudent(user, dialog, '98123');
  await user.click(within(dialog).getByRole('button', { name: 'Add' }));
  await waitFor(() => expect(phone).toHaveAccessibleDescription(words));
  expect(phone).toBeInvalid();
  // On the field, not above the form.
  expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  // Typing in the field clears its refusal and brings the hint back.
  await user.type(phone, '45670');
  expect(phone).toBeValid();
  expect(phone).toHaveAccessibleDescription('Without a country code, +91 is added, e.g. 98123 45670');
});

it('shows a failure that names no field of the dialog above the fields', async () => {
  const user = userEvent.setup({ delay: null });
  openStudents('admin', listOf(1, student), {
    'POST /students/': () =>
      json({ detail: 'The database is unavailable at the moment. Please try again shortly.' }, 503),
  });
  await screen.findByText('Student 1');
  await user.click(screen.getByRole('button', { name: 'Add Student' }));
  const dialog = screen.getByRole('dialog', { name: 'Add Student' });
  await fillNewStudent(user, dialog, '98123 45670');
  await user.click(within(dialog).getByRole('button', { name: 'Add' }));
  expect(await within(dialog).findByRole('alert')).toHaveTextContent(
    'The database is unavailable at the moment. Please try again shortly.',
  );
});

/** The server's 409 for a staff opt-in after the parent's own STOP, as it answers it. */
const PARENT_SAID_STOP = {
  detail:
    'parent_whatsapp_opt_in: cannot be turned on by the centre: the parent turned WhatsApp messages off by replying STOP. Only the parent can turn them on again, by replying START on WhatsApp or in the parent app',
  code: 'validation.parent_opted_out',
  params: { field: 'parent_whatsapp_opt_in', how: 'whatsapp_reply' },
};

it('shows a refused WhatsApp consent (the parent said STOP) on the consent switch, and clears it when it is switched', async () => {
  const user = userEvent.setup({ delay: null });
  const [first] = listOf(1, student);
  const calls = openStudents('teacher', [first as Student], { 'PUT /students/1': () => json(PARENT_SAID_STOP, 409) });
  await user.click(await screen.findByRole('button', { name: 'Edit Student 1' }));
  const dialog = screen.getByRole('dialog', { name: 'Edit Student' });
  const consent = within(dialog).getByRole('switch', { name: 'Parent agreed to WhatsApp messages' });
  await user.click(consent);
  await user.click(within(dialog).getByRole('button', { name: 'Save' }));
  const words =
    'Cannot be turned on by the centre: the parent turned WhatsApp messages off by replying STOP. Only the parent can turn them on again, by replying START on WhatsApp or in the parent app';
  await waitFor(() => expect(consent).toHaveAccessibleDescription(expect.stringContaining(words)));
  expect(consent).toBeInvalid();
  expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({ parent_whatsapp_opt_in: true });
  // On the switch, not above the form; the dialog stays open.
  expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  expect(within(dialog).getByText(words)).toBeInTheDocument();
  await user.click(consent);
  expect(consent).toBeValid();
  expect(within(dialog).queryByText(words)).not.toBeInTheDocument();
});
