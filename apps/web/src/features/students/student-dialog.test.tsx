import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Student } from '@tuitiondesk/contract';
import { describe, expect, it, type Mock, vi } from 'vitest';
import { student as makeStudent, renderPage } from '../../testing';
import { studentsQuery } from './api';
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
  const { client } = renderPage(
    <StudentDialog student={existing} saving={false} onCancel={() => {}} onSave={onSave} />,
  );
  return { user, onSave, client };
}

/** Clicks `button`, which must be enabled, and answers the one thing the dialog saved. */
async function saveWith(user: ReturnType<typeof userEvent.setup>, button: HTMLElement, onSave: Mock) {
  expect(button).toBeEnabled();
  await user.click(button);
  expect(onSave).toHaveBeenCalledTimes(1);
  return onSave.mock.calls[0]?.[0];
}

describe('the Add Student dialog', () => {
  it('keeps Add disabled until full name, class, parent name and parent phone are all filled', async () => {
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
  it('shows the Student ID disabled and saves without checks', async () => {
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

describe("the family's WhatsApp consent and language", () => {
  it('records both, says they apply to the whole family, and shows who gave the consent', async () => {
    const consented = makeStudent(8, {
      parent_whatsapp_opt_in: true,
      parent_language: 'hi',
      parent_whatsapp_opt_in_changed_at: '2026-11-20T10:00:00+05:30',
      parent_whatsapp_opt_in_changed_by: 'Centre Admin',
    });
    const { user, onSave } = renderDialog(consented);
    const consent = screen.getByRole('switch', { name: 'Parent agreed to WhatsApp messages' });
    expect(consent).toBeChecked();
    expect(consent).toHaveAccessibleDescription(
      "Only with the parent's agreement: families without the parent app then get messages on WhatsApp. " +
        'Applies to every child with this parent phone. Given by Centre Admin on 20 Nov 2026.',
    );
    const language = screen.getByRole('combobox', { name: /Parent's Language/ });
    expect(language).toHaveTextContent('हिन्दी (Hindi)');
    expect(
      screen.getByText(/sent in this language where the centre has the text\. Applies to every child/),
    ).toBeVisible();

    await user.click(consent);
    await user.click(language);
    expect(
      within(screen.getByRole('listbox'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['English', 'हिन्दी (Hindi)', 'मराठी (Marathi)', 'தமிழ் (Tamil)', 'বাংলা (Bengali)', 'اردو (Urdu)']);
    await user.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'தமிழ் (Tamil)' }));
    const saved = await saveWith(user, screen.getByRole('button', { name: 'Save' }), onSave);
    expect(saved).toMatchObject({ parent_whatsapp_opt_in: false, parent_language: 'ta' });
  });

  it('says who withdrew the consent, and when', () => {
    renderDialog(
      makeStudent(9, {
        parent_whatsapp_opt_in: false,
        parent_whatsapp_opt_in_changed_at: '2026-03-05T18:30:00+05:30',
        parent_whatsapp_opt_in_changed_by: 'Parent (WhatsApp reply)',
      }),
    );
    const consent = screen.getByRole('switch', { name: 'Parent agreed to WhatsApp messages' });
    expect(consent).not.toBeChecked();
    expect(consent).toHaveAccessibleDescription(/Withdrawn by Parent \(WhatsApp reply\) on 05 Mar 2026\.$/);
  });

  it('says nothing of a change on a family whose consent was never given or withdrawn', () => {
    renderDialog(student);
    expect(screen.getByRole('switch', { name: 'Parent agreed to WhatsApp messages' })).toHaveAccessibleDescription(
      /Applies to every child with this parent phone\.$/,
    );
  });

  it('sends consent and language from Add only when set, so a new family starts without consent', async () => {
    const { user, onSave } = renderDialog();
    const consent = screen.getByRole('switch', { name: 'Parent agreed to WhatsApp messages' });
    expect(consent).not.toBeChecked();
    expect(screen.getByRole('combobox', { name: /Parent's Language/ })).toHaveTextContent('English');
    await user.type(screen.getByRole('textbox', { name: /Full Name/ }), 'Zoya Ansari');
    await chooseClass(user, '7');
    await user.type(screen.getByRole('textbox', { name: /Parent Name/ }), 'Imran Ansari');
    await user.type(screen.getByRole('textbox', { name: /Parent Phone/ }), '+919800011111');
    await user.click(consent);
    await user.click(screen.getByRole('combobox', { name: /Parent's Language/ }));
    await user.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'اردو (Urdu)' }));
    expect(await saveWith(user, screen.getByRole('button', { name: 'Add' }), onSave)).toEqual({
      full_name: 'Zoya Ansari',
      class_name: '7',
      parent_name: 'Imran Ansari',
      parent_phone: '+919800011111',
      parent_whatsapp_opt_in: true,
      parent_language: 'ur',
    });
  });

  it("shows a known family's consent and language for its phone, and leaves them to the family when not changed", async () => {
    const sister = makeStudent(11, {
      full_name: 'Kavya Iyer',
      parent_phone: '+919800022222',
      parent_whatsapp_opt_in: true,
      parent_language: 'ta',
      parent_whatsapp_opt_in_changed_at: '2026-06-01T09:00:00+05:30',
      parent_whatsapp_opt_in_changed_by: 'Asha Rao',
    });
    const { user, onSave, client } = renderDialog();
    act(() => client.setQueryData(studentsQuery().queryKey, [student, sister]));
    await user.type(screen.getByRole('textbox', { name: /Full Name/ }), 'Arjun Iyer');
    await chooseClass(user, '8');
    await user.type(screen.getByRole('textbox', { name: /Parent Name/ }), 'Lakshmi Iyer');
    await user.type(screen.getByRole('textbox', { name: /Parent Phone/ }), '+91 98000 22222');
    const consent = screen.getByRole('switch', { name: 'Parent agreed to WhatsApp messages' });
    expect(consent).toBeChecked();
    expect(consent).toHaveAccessibleDescription(
      /Applies to every child with this parent phone\. Also the parent of Kavya Iyer\. Given by Asha Rao on 01 Jun 2026\.$/,
    );
    expect(screen.getByRole('combobox', { name: /Parent's Language/ })).toHaveTextContent('தமிழ் (Tamil)');
    expect(await saveWith(user, screen.getByRole('button', { name: 'Add' }), onSave)).toEqual({
      full_name: 'Arjun Iyer',
      class_name: '8',
      parent_name: 'Lakshmi Iyer',
      parent_phone: '+91 98000 22222',
    });
  });

  it("follows the phone on Edit: another family's values when moved to its phone, the record's own otherwise", async () => {
    const mine = makeStudent(12, { full_name: 'Moved Child', parent_phone: '+919800033333', parent_language: 'bn' });
    const sibling = makeStudent(13, { full_name: 'Own Sibling', parent_phone: '+919800033333', parent_language: 'bn' });
    const other = makeStudent(14, {
      full_name: 'Other Family',
      parent_phone: '+919800044444',
      parent_whatsapp_opt_in: true,
      parent_language: 'mr',
      parent_whatsapp_opt_in_changed_at: '2026-02-10T09:00:00+05:30',
      parent_whatsapp_opt_in_changed_by: 'Centre Admin',
    });
    const { user, onSave, client } = renderDialog(mine);
    act(() => client.setQueryData(studentsQuery().queryKey, [mine, sibling, other]));
    const consent = screen.getByRole('switch', { name: 'Parent agreed to WhatsApp messages' });
    const language = screen.getByRole('combobox', { name: /Parent's Language/ });
    await waitFor(() => expect(consent).toHaveAccessibleDescription(/Also the parent of Own Sibling\.$/));
    expect(language).toHaveTextContent('বাংলা (Bengali)');

    const phone = screen.getByRole('textbox', { name: 'Parent Phone' });
    await user.clear(phone);
    await user.type(phone, '+919800044444');
    expect(consent).toBeChecked();
    expect(language).toHaveTextContent('मराठी (Marathi)');
    expect(consent).toHaveAccessibleDescription(
      /Also the parent of Other Family\. Given by Centre Admin on 10 Feb 2026\.$/,
    );

    await user.clear(phone);
    await user.type(phone, '+919800055555');
    expect(consent).not.toBeChecked();
    expect(language).toHaveTextContent('বাংলা (Bengali)');

    await user.clear(phone);
    await user.type(phone, '+919800044444');
    const saved = await saveWith(user, screen.getByRole('button', { name: 'Save' }), onSave);
    expect(saved).toEqual({
      full_name: 'Moved Child',
      class_name: '7',
      parent_name: 'Parent 12',
      parent_phone: '+919800044444',
    });
  });
});
