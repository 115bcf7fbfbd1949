import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ParentAccessIssued, ParentAccessStatus } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n';
import { fakeApi, renderPage } from '../../testing';
import {
  ADMIN_REPLACES_TEXT,
  ParentAccessDialog,
  PRINT_INSTRUCTIONS,
  regenerateConfirmText,
} from './parent-access-dialog';
import { signInLinkFor } from './share-link';

const status: ParentAccessStatus = {
  phone: '+919800011111',
  parent_name: 'Meena Verma',
  children: [
    { id: 7, unique_id: 'STU0007', full_name: 'Asha Verma', class_name: '7' },
    { id: 9, unique_id: 'STU0009', full_name: 'Ravi Verma', class_name: '9' },
  ],
  has_code: false,
  issued_at: null,
  issued_by: null,
  last_sign_in_at: null,
  devices_with_notifications: 0,
  can_replace_code: true,
};
const issuedStatus: ParentAccessStatus = {
  ...status,
  has_code: true,
  issued_at: '2026-11-20T10:15:00Z',
  issued_by: 'Administrator',
  last_sign_in_at: '2026-11-21T08:00:00Z',
  devices_with_notifications: 2,
};
/** What a teacher is told: anyone may issue a first code, only an admin replace one. */
const asTeacher = (access: ParentAccessStatus): ParentAccessStatus => ({ ...access, can_replace_code: false });
const FIRST_MESSAGE = 'Access code issued. Give it to the parent now: it cannot be shown again.';

function renderDialog(onClose = vi.fn()) {
  renderPage(<ParentAccessDialog student={{ id: 7, full_name: 'Asha Verma' }} onClose={onClose} />);
  return onClose;
}

/** The server's words to share the code with, in the family's language (here Hindi). */
const SHARE_TEXT = 'सूर्योदय ट्यूशन: इस लिंक से अभिभावक ऐप में साइन इन करें।';

function issuedAnswer(code: string, message = FIRST_MESSAGE): ParentAccessIssued {
  return {
    ...issuedStatus,
    last_sign_in_at: null,
    devices_with_notifications: 0,
    code,
    message,
    share_text: SHARE_TEXT,
  };
}

afterEach(() => vi.restoreAllMocks());

describe('signInLinkFor', () => {
  it('builds the parent link from the XXXX-XXXX code the server sends, without doubling the dash', () => {
    expect(signInLinkFor('https://centre.example', '+919800011111', 'ABCD-EF23')).toBe(
      'https://centre.example/parent/#phone=%2B919800011111&code=ABCD-EF23',
    );
  });
});

describe('the Parent Access dialog', () => {
  it('shows the parent, the children on that phone and that no code has been issued', async () => {
    fakeApi({ 'GET /students/7/parent-access': () => [200, status] });
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: /Parent Access/ });
    expect(await within(dialog).findByText('Meena Verma')).toBeInTheDocument();
    expect(within(dialog).getByText('+919800011111')).toBeInTheDocument();
    expect(within(dialog).getByText('Asha Verma · Class 7')).toBeInTheDocument();
    expect(within(dialog).getByText('Ravi Verma · Class 9')).toBeInTheDocument();
    expect(within(dialog).getByText('Not issued yet')).toBeInTheDocument();
    expect(within(dialog).getByText('Never')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Issue access code' })).toBeEnabled();
  });

  it('shows when and by whom a code was issued, the last sign-in and the devices with notifications', async () => {
    fakeApi({ 'GET /students/7/parent-access': () => [200, issuedStatus] });
    renderDialog();
    const dialog = await screen.findByRole('dialog');
    expect(
      await within(dialog).findByText(/^Issued \d{2} Nov 2026, \d{2}:\d{2} by Administrator$/),
    ).toBeInTheDocument();
    expect(within(dialog).getByText('2 devices')).toBeInTheDocument();
    expect(within(dialog).queryByText('Never')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Regenerate code' })).toBeInTheDocument();
  });

  it('issues a code and shows it with the link, a QR code, copy buttons and the warning', async () => {
    const user = userEvent.setup({ delay: null });
    const confirm = vi.spyOn(window, 'confirm');
    const { calls } = fakeApi({
      'GET /students/7/parent-access': () => [200, status],
      'POST /students/7/parent-access': () => [201, issuedAnswer('K7QM-2XHR')],
    });
    const onClose = renderDialog();
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('button', { name: 'Issue access code' }));

    expect(confirm).not.toHaveBeenCalled();
    expect(await within(dialog).findByTestId('access-code')).toHaveTextContent('K7QM-2XHR');
    const link = signInLinkFor(window.location.origin, '+919800011111', 'K7QM-2XHR');
    expect(within(dialog).getByText(link)).toBeInTheDocument();
    expect(within(dialog).getByText(FIRST_MESSAGE)).toBeInTheDocument();
    const qr = await within(dialog).findByRole('img', { name: 'QR code of the parent sign-in link' });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(within(dialog).getByRole('button', { name: 'Regenerate code' })).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1);

    // The printable card carries what the parent needs, and only that.
    const card = document.querySelector('.parent-access-print-card') as HTMLElement;
    expect(card).toHaveTextContent('TuitionDesk');
    expect(card).toHaveTextContent('Asha Verma (Class 7), Ravi Verma (Class 9)');
    expect(card).toHaveTextContent('K7QM-2XHR');
    expect(card).toHaveTextContent(PRINT_INSTRUCTIONS);

    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(within(dialog).getByRole('button', { name: 'Copy code' }));
    expect(writeText).toHaveBeenLastCalledWith('K7QM-2XHR');
    expect(await screen.findByText('Copied')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenLastCalledWith(link);

    // Shared on WhatsApp from the staff member's phone, as a class's codes are: the family's words, then the link.
    const share = within(dialog).getByRole('link', { name: 'Share on WhatsApp with Meena Verma' });
    const href = new URL(share.getAttribute('href') as string);
    expect(`${href.origin}${href.pathname}`).toBe('https://wa.me/919800011111');
    expect(href.searchParams.get('text')).toBe(`${SHARE_TEXT}\n${link}`);
    expect(share).toHaveAttribute('target', '_blank');

    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    await user.click(within(dialog).getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledOnce();

    // A code on screen is shown once: Escape does not lose it, Close does.
    await user.keyboard('{Escape}');
    expect(onClose).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('asks before regenerating and does nothing when the confirmation is cancelled', async () => {
    const user = userEvent.setup({ delay: null });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { calls } = fakeApi({
      'GET /students/7/parent-access': () => [200, issuedStatus],
      'POST /students/7/parent-access': () => [201, issuedAnswer('AAAA-BBBB')],
    });
    renderDialog();
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('button', { name: 'Regenerate code' }));
    expect(confirm).toHaveBeenCalledWith(regenerateConfirmText(i18n.getFixedT('en', 'parents'), issuedStatus));
    expect(confirm.mock.calls[0]?.[0]).toMatch(/devices will be signed out/);
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
    expect(within(dialog).queryByTestId('access-code')).not.toBeInTheDocument();

    confirm.mockReturnValue(true);
    await user.click(within(dialog).getByRole('button', { name: 'Regenerate code' }));
    expect(await within(dialog).findByTestId('access-code')).toHaveTextContent('AAAA-BBBB');
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1);
  });

  it("shows the server's detail, or the fallback, when loading or issuing fails", async () => {
    fakeApi({ 'GET /students/7/parent-access': () => [500, {}] });
    renderDialog();
    expect(await screen.findByText('Failed to load parent access')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Issue access code' })).toBeDisabled();
  });

  it('shows why issuing failed and keeps the status', async () => {
    const user = userEvent.setup({ delay: null });
    fakeApi({
      'GET /students/7/parent-access': () => [200, status],
      'POST /students/7/parent-access': () => [500, {}],
    });
    renderDialog();
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('button', { name: 'Issue access code' }));
    expect(await within(dialog).findByText('Failed to issue access code')).toBeInTheDocument();
    expect(within(dialog).getByText('Meena Verma')).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Issue access code' })).toBeEnabled());
    expect(within(dialog).queryByTestId('access-code')).not.toBeInTheDocument();
  });

  it('offers a teacher no new code where the family has one, and says an admin can replace it', async () => {
    const { calls } = fakeApi({ 'GET /students/7/parent-access': () => [200, asTeacher(issuedStatus)] });
    renderDialog();
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText(ADMIN_REPLACES_TEXT)).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Regenerate code' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Issue access code' })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeEnabled();
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it("lets a teacher issue a family's first code, and then offers no replacement", async () => {
    const user = userEvent.setup({ delay: null });
    fakeApi({
      'GET /students/7/parent-access': () => [200, asTeacher(status)],
      'POST /students/7/parent-access': () => [
        201,
        { ...asTeacher(issuedAnswer('K7QM-2XHR')), issued_by: 'Tess Teacher' },
      ],
    });
    renderDialog();
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByText(ADMIN_REPLACES_TEXT)).not.toBeInTheDocument();
    await user.click(await within(dialog).findByRole('button', { name: 'Issue access code' }));
    expect(await within(dialog).findByTestId('access-code')).toHaveTextContent('K7QM-2XHR');
    expect(within(dialog).queryByRole('button', { name: 'Regenerate code' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Issue access code' })).not.toBeInTheDocument();
  });

  it("shows the server's refusal when a code was issued meanwhile by someone else", async () => {
    const user = userEvent.setup({ delay: null });
    const detail =
      "This family already has an access code. Only an admin can replace it, because a new code signs the parent's devices out: ask an admin if the parent has lost theirs.";
    fakeApi({
      'GET /students/7/parent-access': () => [200, asTeacher(status)],
      'POST /students/7/parent-access': () => [403, { detail }],
    });
    renderDialog();
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('button', { name: 'Issue access code' }));
    expect(await within(dialog).findByText(detail)).toBeInTheDocument();
    expect(within(dialog).queryByTestId('access-code')).not.toBeInTheDocument();
  });

  it("shows the server's detail when it gives one", async () => {
    fakeApi({ 'GET /students/7/parent-access': () => [404, { detail: 'Student not found' }] });
    renderDialog();
    expect(await screen.findByText('Student not found')).toBeInTheDocument();
  });
});
