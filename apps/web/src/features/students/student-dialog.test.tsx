import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Student } from '@tuitiondesk/contract';
import { describe, expect, it, type Mock, vi } from 'vitest';
import { student as makeStudent, renderPage } from '../../testing';
import { StudentDialog } from './student-dialog';

const student: Student = makeStudent(7, {
  full_name: 'Asha Rao',
  class_name: '8',
  parent_name: 'Meena Rao',
  parent_phone: '+919876500001',
});

async function chooseClass(user: ReturnType<typeof userEvent.setup>, name: string) {
  await user.click(screen.getByRole('combobox', { name: /Class/ }));
  await user.click(within(screen.getByRole('listbox')).getByRole('option', { name }));
}

/** The dialog: Edit for `existing`, Add without; `onSave` records what it saves. */
function renderDialog(existing?: Student) {
  const user = userEvent.setup({ delay: null });
  const onSave = vi.fn();
  renderPage(<StudentDialog student={existing} saving={false} onCancel={() => {}} onSave={onSave} />);
  return { user, onSave };
}

/** Clicks `button`, which must be enabled, and answers the one thing the dialog saved. */
async function saveWith(user: ReturnType<typeof userEvent.setup>, button: HTMLElement, onSave: Mock) {
  expect(button).toBeEnabled();
  await user.click(button);
  expect(onSave).toHaveBeenCalledTimes(1);
  return onSave.mock.calls[0]?.[0];
}

describe('the Add Student dialog', () => {
  it('keeps Add disabled until full name, class, parent name and parent phone are all filled', {
    timeout: 20_000,
  }, async () => {
    const { user, onSave } = renderDialog();
    const add = screen.getByRole('button', { name: 'Add' });
    expect(screen.getByRole('dialog', { name: 'Add Student' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Student ID')).not.toBeInTheDocument();
    expect(screen.getByText('7, 8, 9 or 10')).toBeInTheDocument();
    expect(add).toBeDisabled();

    await user.type(screen.getByRole('textbox', { name: /Full Name/ }), 'Ravi Kumar');
    expect(add).toBeDisabled();
    await chooseClass(user, '9');
    expect(add).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: /Parent Name/ }), '   ');
    await user.type(screen.getByRole('textbox', { name: /Parent Phone/ }), '+919812345678');
    expect(add).toBeDisabled(); // blanks do not count as filled
    await user.type(screen.getByRole('textbox', { name: /Parent Name/ }), 'Sunita Kumar');
    expect(await saveWith(user, add, onSave)).toEqual({
      full_name: 'Ravi Kumar',
      class_name: '9',
      parent_name: '   Sunita Kumar',
      parent_phone: '+919812345678',
    });
  });
});

describe('the Edit Student dialog', () => {
  it('shows the Student ID disabled and saves without checks', { timeout: 20_000 }, async () => {
    const { user, onSave } = renderDialog(student);
    expect(screen.getByRole('dialog', { name: 'Edit Student' })).toBeInTheDocument();
    const id = screen.getByRole('textbox', { name: 'Student ID' });
    expect(id).toBeDisabled();
    expect(id).toHaveValue('STU0007');

    await user.clear(screen.getByRole('textbox', { name: 'Parent Name' }));
    expect(await saveWith(user, screen.getByRole('button', { name: 'Save' }), onSave)).toEqual({
      full_name: 'Asha Rao',
      class_name: '8',
      parent_name: '',
      parent_phone: '+919876500001',
    });
  });
});
