import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BulkParentAccessResult } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, json, renderPage } from '../../testing';
import { BulkAccessButton } from './bulk-access-dialog';

afterEach(() => vi.restoreAllMocks());

const CLASSES = ['7', '8'].map((value) => ({ value, label: `Class ${value}` }));

const RESULT: BulkParentAccessResult = {
  class_name: '8',
  centre_name: 'Sunrise Tuition',
  issued: [
    {
      phone: '+919812345670',
      parent_name: 'Meera Das',
      children: ['Kiran Das'],
      language: 'en',
      code: 'K7M2-Q9XR',
      replaced: false,
      slip: {
        title: 'Sunrise Tuition: the parent app',
        steps: ['Scan this code.', 'Tap Sign in. (Phone: +919812345670, code: K7M2-Q9XR)', 'Allow notifications.'],
        share_text: 'Sunrise Tuition: sign in to the parent app with this link. Your access code is K7M2-Q9XR.',
      },
    },
    {
      phone: '+919812345671',
      parent_name: 'Bilal Khan',
      children: ['Sana Khan'],
      language: 'ur',
      code: 'AB12-CD34',
      replaced: false,
      slip: {
        title: 'Sunrise Tuition: والدین کی ایپ',
        steps: ['اسکین کریں۔', 'سائن ان کریں۔', 'اجازت دیں۔'],
        share_text: 'Sunrise Tuition: اس لنک سے والدین کی ایپ میں سائن ان کریں۔',
      },
    },
  ],
  skipped: [{ phone: '+919812345672', parent_name: 'Ravi Iyer', children: ['Tara Iyer'], language: 'en' }],
  message: 'ok',
};

describe('parent app codes for a class', () => {
  it('issues a class’s codes, lists them with a WhatsApp link each, and prints the slips', async () => {
    const user = userEvent.setup({ delay: null });
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    const { calls } = fakeApi({
      'GET /students/classes': () => [200, CLASSES],
      'POST /parent-access/bulk': () => json(RESULT),
    });
    renderPage(<BulkAccessButton />, { signedInAs: 'admin' });
    await user.click(screen.getByRole('button', { name: 'Parent app codes for a class' }));
    const dialog = await screen.findByRole('dialog', { name: 'Parent app codes for a class' });
    const issue = within(dialog).getByRole('button', { name: 'Issue codes' });
    expect(issue).toBeDisabled();
    await user.click(within(dialog).getByRole('combobox', { name: 'Class' }));
    await user.click(await screen.findByRole('option', { name: 'Class 8' }));
    await user.click(issue);

    expect(await within(dialog).findByText('2 new code(s) issued; 1 family(ies) already had one.')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ class_name: '8', regenerate: false });
    const share = within(dialog).getByRole('link', { name: 'Share on WhatsApp with Meera Das' });
    const href = new URL(share.getAttribute('href') as string);
    expect(href.origin + href.pathname).toBe('https://wa.me/919812345670');
    expect(href.searchParams.get('text')).toBe(
      `Sunrise Tuition: sign in to the parent app with this link. Your access code is K7M2-Q9XR.\n${window.location.origin}/parent/#phone=%2B919812345670&code=K7M2-Q9XR`,
    );
    expect(within(dialog).getByText('Ravi Iyer')).toBeInTheDocument();

    // The slips (hidden on screen, printed alone): one per family, in its language and direction, with its QR code.
    const slips = screen.getByTestId('access-slips');
    const urdu = within(slips).getByRole('region', { name: 'Bilal Khan', hidden: true });
    expect(urdu).toHaveAttribute('dir', 'rtl');
    expect(urdu).toHaveAttribute('lang', 'ur');
    expect(urdu).toHaveTextContent('Sunrise Tuition: والدین کی ایپ');
    expect(within(slips).getByRole('region', { name: 'Meera Das', hidden: true })).toHaveTextContent('K7M2-Q9XR');
    await waitFor(() => expect(slips.querySelectorAll('img')).toHaveLength(2));
    await user.click(within(dialog).getByRole('button', { name: 'Print slips' }));
    expect(print).toHaveBeenCalledOnce();
  });

  it('warns before replacing codes, and says what the server refused', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = fakeApi({
      'GET /students/classes': () => [200, CLASSES],
      'POST /parent-access/bulk': () => [
        404,
        { detail: 'Class 7 has no students who attend the centre: there is nobody to give codes to' },
      ],
    });
    renderPage(<BulkAccessButton />, { signedInAs: 'admin' });
    await user.click(screen.getByRole('button', { name: 'Parent app codes for a class' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('combobox', { name: 'Class' }));
    await user.click(await screen.findByRole('option', { name: 'Class 7' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Also replace the codes families already have' }));
    expect(within(dialog).getByText(/signed out of the parent app on every device/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Issue codes' }));
    expect(await within(dialog).findByText(/Class 7 has no students who attend the centre/)).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ class_name: '7', regenerate: true });
  });
});
