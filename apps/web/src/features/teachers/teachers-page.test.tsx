import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ClassOption, Teacher } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FakeRoute, fakeApi, json, listOf, teacher as makeTeacher, renderPage } from '../../testing';
import TeachersPage from './teachers-page';

const CLASSES: ClassOption[] = ['7', '8', '9', '10'].map((value) => ({ value, label: `Class ${value}` }));

/** Teachers numbered from 1; only Teacher 2 has two-factor sign-in on. */
function makeTeachers(count: number): Teacher[] {
  return listOf(count, (id) => makeTeacher(id, { two_factor_enabled: id === 2 }));
}

/** Serves `teachers`, the classes and the routes given; returns the calls the page made. */
function openTeachers(teachers: Teacher[], routes: Record<string, FakeRoute> = {}) {
  const { calls } = fakeApi({
    'GET /teachers/': () => [200, teachers],
    'GET /students/classes': () => [200, CLASSES],
    ...routes,
  });
  renderPage(<TeachersPage />, { signedInAs: 'admin' });
  return calls;
}

type User = ReturnType<typeof userEvent.setup>;

async function pick(user: User, dialog: HTMLElement, field: RegExp, options: string[]) {
  await user.click(within(dialog).getByRole('combobox', { name: field }));
  const listbox = await screen.findByRole('listbox');
  for (const option of options) await user.click(within(listbox).getByRole('option', { name: option }));
  await user.keyboard('{Escape}');
  await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
}

async function fillRequired(user: User, dialog: HTMLElement) {
  await user.type(within(dialog).getByRole('textbox', { name: /First Name/ }), 'Priya');
  await user.type(within(dialog).getByRole('textbox', { name: /Last Name/ }), 'Sharma');
  await user.type(within(dialog).getByRole('textbox', { name: /Phone Number/ }), '+919800000004');
  await pick(user, dialog, /Subjects/, ['Mathematics']);
  await pick(user, dialog, /Classes Assigned/, ['Class 9']);
}

// MUI under jsdom is slow on a busy machine; these walk whole flows.
afterEach(() => vi.restoreAllMocks());

describe('the Teachers screen', () => {
  it('lists teachers with their subjects and classes', async () => {
    openTeachers(makeTeachers(2));
    expect(await screen.findByText('Teacher 1')).toBeInTheDocument();
    for (const header of ['Teacher', 'Teacher ID', 'Contact', 'Subjects', 'Classes Assigned', 'Actions']) {
      expect(screen.getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    const row = screen.getByRole('row', { name: /Teacher 2/ });
    expect(within(row).getByText('TCH0002')).toBeInTheDocument();
    expect(within(row).getByText('Physics')).toBeInTheDocument();
    expect(within(row).getByText('Class 10')).toBeInTheDocument();
  });

  it('says No teachers yet', async () => {
    openTeachers([]);
    expect(await screen.findByText('No teachers yet')).toBeInTheDocument();
  });

  it('keeps Save disabled until the required fields, a subject and a class are present', async () => {
    const user = userEvent.setup({ delay: null });
    openTeachers([]);
    await user.click(await screen.findByRole('button', { name: 'Add Teacher' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Teacher' });
    const save = within(dialog).getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    await user.type(within(dialog).getByRole('textbox', { name: /First Name/ }), 'Priya');
    await user.type(within(dialog).getByRole('textbox', { name: /Last Name/ }), 'Sharma');
    await user.type(within(dialog).getByRole('textbox', { name: /Phone Number/ }), '+919800000004');
    expect(save).toBeDisabled();
    await pick(user, dialog, /Subjects/, ['Mathematics']);
    expect(save).toBeDisabled();
    await pick(user, dialog, /Classes Assigned/, ['Class 9']);
    expect(save).toBeEnabled();
  });

  it('shows a refused phone number on its field, and a refused email on its own', async () => {
    const user = userEvent.setup({ delay: null });
    const words = 'Remove "O" from the phone number: digits only, with spaces, dashes or brackets if you like';
    const answers = [
      json({ detail: `phone_number: ${words}` }, 422),
      json({ detail: 'email: must be a valid email address' }, 422),
    ];
    openTeachers([], {
      'POST /teachers/': () => answers.shift() as Response,
      'GET /settings/phones': () => [200, { default_country_code: '+91' }],
    });
    await user.click(await screen.findByRole('button', { name: 'Add Teacher' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Teacher' });
    await fillRequired(user, dialog);
    const phone = within(dialog).getByRole('textbox', { name: /Phone Number/ });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(phone).toHaveAccessibleDescription(words));
    expect(phone).toBeInvalid();
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const email = within(dialog).getByRole('textbox', { name: /Email/ });
    await waitFor(() => expect(email).toHaveAccessibleDescription('Must be a valid email address'));
    expect(phone).toBeValid();
    expect(phone).toHaveAccessibleDescription('Without a country code, +91 is added, e.g. 98123 45670');
  });

  it('after creating a teacher shows the initial password once', async () => {
    const user = userEvent.setup({ delay: null });
    const created = {
      ...makeTeachers(1)[0],
      full_name: 'Priya Sharma',
      initial_password: 'Init-Pass-123',
      message: 'ok',
    };
    const calls = openTeachers([], { 'POST /teachers/': () => json(created, 201) });
    await user.click(await screen.findByRole('button', { name: 'Add Teacher' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Teacher' });
    await fillRequired(user, dialog);
    await user.type(within(dialog).getByRole('spinbutton', { name: 'Experience (years)' }), '4');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    const shown = await screen.findByRole('dialog', { name: 'Teacher sign-in created' });
    expect(within(shown).getByText('tch0001')).toBeInTheDocument();
    expect(within(shown).getByText('Init-Pass-123')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Add Teacher' })).not.toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({
      first_name: 'Priya',
      last_name: 'Sharma',
      full_name: 'Priya Sharma',
      email: null,
      subjects: ['Mathematics'],
      classes_assigned: ['9'],
      experience_years: 4,
    });
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByText('Init-Pass-123')).not.toBeInTheDocument());
  });

  it('shows a failed save inside the dialog, with the server detail or the fallback', async () => {
    const user = userEvent.setup({ delay: null });
    let answer = json({ detail: 'A teacher with this email already exists' }, 409);
    openTeachers([], { 'POST /teachers/': () => answer });
    await user.click(await screen.findByRole('button', { name: 'Add Teacher' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Teacher' });
    await fillRequired(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('A teacher with this email already exists')).toBeInTheDocument();

    answer = new Response('', { status: 500 });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Failed to save teacher')).toBeInTheDocument();
  });

  it('edits a teacher: names split back, whole object sent with full_name', async () => {
    const user = userEvent.setup({ delay: null });
    const [teacher] = makeTeachers(1);
    const calls = openTeachers([teacher as Teacher], { 'PUT /teachers/1': () => json(teacher) });
    await user.click(await screen.findByRole('button', { name: 'Edit Teacher 1' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Teacher' });
    expect(within(dialog).getByRole('textbox', { name: 'Teacher ID' })).toBeDisabled();
    expect(within(dialog).getByRole('textbox', { name: /First Name/ })).toHaveValue('Teacher');
    const last = within(dialog).getByRole('textbox', { name: /Last Name/ });
    expect(last).toHaveValue('1');
    await user.clear(last);
    await user.type(last, 'One');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Teacher' })).not.toBeInTheDocument());
    expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({
      id: 1,
      unique_id: 'TCH0001',
      full_name: 'Teacher One',
      last_name: 'One',
      subjects: ['Mathematics', 'Physics'],
      experience_years: 3,
    });
  });

  it('toasts Failed to load classes when the classes cannot be fetched', async () => {
    const user = userEvent.setup({ delay: null });
    openTeachers([], { 'GET /students/classes': () => new Response('', { status: 500 }) });
    await user.click(await screen.findByRole('button', { name: 'Add Teacher' }));
    expect(await screen.findByText('Failed to load classes')).toBeInTheDocument();
  });

  it('deletes the selected teachers after the confirmation', async () => {
    const user = userEvent.setup({ delay: null });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const calls = openTeachers(makeTeachers(3), {
      'POST /teachers/delete-multiple': () => json({ deleted_count: 3, message: 'ok' }),
      'DELETE /teachers/2': () => json({ message: 'ok' }),
    });
    await user.click(await screen.findByRole('checkbox', { name: 'Select all teachers' }));
    expect(screen.getByRole('status')).toHaveTextContent('All 3 teachers selected');
    await user.click(screen.getByRole('button', { name: 'Delete Selected (3)' }));
    expect(confirm).toHaveBeenCalledWith('Are you sure you want to delete 3 teacher(s)?');
    expect(await screen.findByText('Successfully deleted 3 teacher(s).')).toBeInTheDocument();
    expect(calls.find((call) => call.path === '/teachers/delete-multiple')?.body).toEqual([1, 2, 3]);

    await user.click(screen.getByRole('button', { name: 'Delete Teacher 2' }));
    expect(confirm).toHaveBeenLastCalledWith('Are you sure you want to delete Teacher 2?');
    expect(await screen.findByText('Teacher deleted successfully.')).toBeInTheDocument();
  });

  it('resets a teacher’s two-factor sign-in after the confirmation, offered only where it is on', async () => {
    const user = userEvent.setup({ delay: null });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValue(true);
    const calls = openTeachers(makeTeachers(3), {
      'DELETE /auth/two-factor/users/102': () => json({ message: 'ok' }),
    });
    await screen.findByRole('button', { name: 'Edit Teacher 2' });
    // Only Teacher 2 has an authenticator.
    expect(screen.queryByRole('button', { name: 'Reset two-factor sign-in for Teacher 1' })).not.toBeInTheDocument();
    const reset = screen.getByRole('button', { name: 'Reset two-factor sign-in for Teacher 2' });

    await user.click(reset);
    expect(confirm).toHaveBeenCalledWith(
      'Reset two-factor sign-in for Teacher 2? Until they set it up again, their password alone signs them in.',
    );
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);

    await user.click(reset);
    expect(await screen.findByText('Two-factor sign-in reset for Teacher 2.')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual([
      '/auth/two-factor/users/102',
    ]);
  });
});
