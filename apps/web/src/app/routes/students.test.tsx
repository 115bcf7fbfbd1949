import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, listOf, renderPage, student } from '../../testing';
import StudentsRoute from './students';

afterEach(() => vi.restoreAllMocks());

describe('the Students route', () => {
  it('gives teachers and admins a Parent Access action that opens the dialog for that student', async () => {
    const user = userEvent.setup({ delay: null });
    const students = listOf(2, student);
    const { calls } = fakeApi({
      'GET /students/': () => [200, students],
      'GET /students/2/parent-access': () => [
        200,
        {
          phone: students[1]?.parent_phone,
          parent_name: 'Parent 2',
          children: [{ id: 2, unique_id: 'STU0002', full_name: 'Student 2', class_name: '7' }],
          has_code: false,
          issued_at: null,
          issued_by: null,
          last_sign_in_at: null,
          devices_with_notifications: 0,
        },
      ],
    });
    renderPage(<StudentsRoute />, { signedInAs: 'teacher' });
    await screen.findByText('Student 1');
    expect(screen.getByRole('button', { name: 'Parent access for Student 1' })).toBeInTheDocument();
    // The action stands before Edit in the row.
    const row = screen.getByRole('row', { name: /Student 2/ });
    expect(
      within(row)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual(['Parent access for Student 2', 'Edit Student 2']);

    await user.click(screen.getByRole('button', { name: 'Parent access for Student 2' }));
    const dialog = await screen.findByRole('dialog', { name: /Parent Access/ });
    expect(await within(dialog).findByText('Not issued yet')).toBeInTheDocument();
    expect(calls.some((call) => call.path === '/students/2/parent-access')).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('gives admins, not teachers, Message on WhatsApp: it sends to the parent, or says why it cannot', async () => {
    const user = userEvent.setup({ delay: null });
    const students = [student(1, { parent_whatsapp_opt_in: true }), student(2)];
    const sent: unknown[] = [];
    let answer: [number, unknown] = [
      200,
      {
        message: 'WhatsApp message sent',
        id: 9,
        recipient: '+919800000001',
        delivery_status: 'sent',
        sent_as: 'template',
      },
    ];
    fakeApi({
      'GET /students/': () => [200, students],
      'POST /communications/send-whatsapp': (request) => {
        sent.push(request.body);
        return answer;
      },
    });
    const { unmount } = renderPage(<StudentsRoute />, { signedInAs: 'teacher' });
    await screen.findByText('Student 1');
    expect(screen.queryByRole('button', { name: /on WhatsApp/ })).not.toBeInTheDocument();
    unmount();

    renderPage(<StudentsRoute />, { signedInAs: 'admin' });
    await screen.findByText('Student 1');
    // Not agreed: the dialog says so and cannot send.
    await user.click(screen.getByRole('button', { name: 'Message the parent of Student 2 on WhatsApp' }));
    let dialog = await screen.findByRole('dialog', { name: 'Message on WhatsApp' });
    expect(within(dialog).getByText(/has not agreed to WhatsApp messages/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Send' })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    // Agreed: it sends, and a failure without a reason shows the spec's words.
    await user.click(screen.getByRole('button', { name: 'Message the parent of Student 1 on WhatsApp' }));
    dialog = await screen.findByRole('dialog', { name: 'Message on WhatsApp' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Message' }), 'Fees are due on Friday.');
    answer = [500, {}];
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('Failed to send WhatsApp message')).toBeInTheDocument();
    answer = [502, { detail: 'WhatsApp did not accept the message: (#131026) Message undeliverable' }];
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText(/Message undeliverable/)).toBeInTheDocument();
    answer = [
      200,
      {
        message: 'WhatsApp message sent',
        id: 9,
        recipient: '+919800000001',
        delivery_status: 'sent',
        sent_as: 'template',
      },
    ];
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('WhatsApp message sent')).toBeInTheDocument();
    expect(sent.at(-1)).toEqual({ student_id: 1, message: 'Fees are due on Friday.' });
  });
});
