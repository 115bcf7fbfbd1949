import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Student } from '@tuitiondesk/contract';
import { describe, expect, it, vi } from 'vitest';
import { StudentDialog } from './student-dialog';

const student: Student = {
  id: 7,
  unique_id: 'STU0007',
  full_name: 'Asha Rao',
  class_name: '8',
  parent_name: 'Meena Rao',
  parent_phone: '+919876500001',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};

async function chooseClass(user: ReturnType<typeof userEvent.setup>, name: string) {
  await user.click(screen.getByRole('combobox', { name: /Class/ }));
  await user.click(within(screen.getByRole('listbox')).getByRole('option', { name }));
}

describe('the Add Student dialog', () => {
  it('keeps Add disabled until full name, class, parent name and parent phone are all filled', {
    timeout: 20_000,
  }, async () => {
    const user = userEvent.setup({ delay: null });
    const onSave = vi.fn();
    render(<StudentDialog open saving={false} onCancel={() => {}} onSave={onSave} />);
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
    expect(add).toBeEnabled();

    await user.click(add);
    expect(onSave).toHaveBeenCalledWith({
      full_name: 'Ravi Kumar',
      class_name: '9',
      parent_name: '   Sunita Kumar',
      parent_phone: '+919812345678',
    });
  });
});

describe('the Edit Student dialog', () => {
  it('shows the Student ID disabled and saves without checks', { timeout: 20_000 }, async () => {
    const user = userEvent.setup({ delay: null });
    const onSave = vi.fn();
    render(<StudentDialog open student={student} saving={false} onCancel={() => {}} onSave={onSave} />);
    expect(screen.getByRole('dialog', { name: 'Edit Student' })).toBeInTheDocument();
    const id = screen.getByRole('textbox', { name: 'Student ID' });
    expect(id).toBeDisabled();
    expect(id).toHaveValue('STU0007');

    await user.clear(screen.getByRole('textbox', { name: 'Parent Name' }));
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeEnabled();
    await user.click(save);
    expect(onSave).toHaveBeenCalledWith({
      full_name: 'Asha Rao',
      class_name: '8',
      parent_name: '',
      parent_phone: '+919876500001',
    });
  });
});
