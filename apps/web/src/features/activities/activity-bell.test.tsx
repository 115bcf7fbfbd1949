import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Activity } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { showLanguage } from '../../i18n';
import { fakeApi, renderPage } from '../../testing';
import { ActivityBell } from './activity-bell';

const FIVE_MINUTES_AGO = new Date(Date.now() - 5 * 60 * 1000 - 10_000).toISOString();

const marked: Activity = {
  id: 1,
  description: 'Mrs Rao marked attendance of Class 9 on 23 Nov 2026',
  time_ago: '5 minutes ago',
  action: 'attendance.marked',
  // Written before activities carried their text as a code: only the English is stored.
  text_code: null,
  params: null,
  actor: 'Mrs Rao',
  created_at: FIVE_MINUTES_AGO,
};

const approved: Activity = {
  id: 2,
  description: 'Mr Iyer approved leave for Asha Verma (Class 9) from 23 Nov 2026 to 24 Nov 2026 (2 days)',
  time_ago: '5 minutes ago',
  action: 'leave.approved',
  text_code: 'leave.approved_days',
  params: {
    actor: 'Mr Iyer',
    name: 'Asha Verma',
    class_name: '9',
    from: '2026-11-23',
    to: '2026-11-24',
    days: 2,
  },
  actor: 'Mr Iyer',
  created_at: FIVE_MINUTES_AGO,
};

/** A payment received, as the server writes it for the counter and for Razorpay alike (admins only see it). */
const paid: Activity = {
  id: 3,
  description:
    'Razorpay recorded a payment of ₹1,250.00 from Meera Iyer (+919812345670), online, receipt R/2026-27/000123',
  time_ago: '5 minutes ago',
  action: 'fees.payment_received',
  text_code: 'fees.payment_received',
  params: {
    actor: 'Razorpay',
    amount: '₹1,250.00',
    family: 'Meera Iyer',
    phone: '+919812345670',
    mode: 'online',
    receipt: 'R/2026-27/000123',
  },
  actor: 'Razorpay',
  created_at: FIVE_MINUTES_AGO,
};

function answerWith(activities: Activity[]) {
  fakeApi({
    'GET /activities/recent': () => [200, { activities, count: activities.length }],
    'POST /activities/mark-viewed': () => [200, { message: 'ok', viewed_at: new Date().toISOString() }],
  });
}

afterEach(async () => {
  vi.restoreAllMocks();
  await showLanguage('en');
});

describe('the activity bell', { timeout: 30_000 }, () => {
  it("shows the unread count and the server's own words in English", async () => {
    answerWith([marked]);
    renderPage(<ActivityBell />, { signedInAs: 'admin' });
    await userEvent.click(await screen.findByRole('button', { name: 'Recent activity, 1 unread' }));
    const panel = await screen.findByRole('heading', { name: 'Recent Activity' });
    const list = within(panel.closest('.MuiPopover-paper') as HTMLElement);
    expect(await list.findByText(marked.description)).toBeInTheDocument();
    expect(list.getByText('5 minutes ago')).toBeInTheDocument();
  });

  it('speaks Hindi around the stored text: the title, and when in Hindi with Western digits', async () => {
    answerWith([marked]);
    await showLanguage('hi');
    renderPage(<ActivityBell />, { signedInAs: 'admin' });
    await userEvent.click(await screen.findByRole('button', { name: 'हाल की गतिविधि, 1 अपठित' }));
    const panel = await screen.findByRole('heading', { name: 'हाल की गतिविधि' });
    const list = within(panel.closest('.MuiPopover-paper') as HTMLElement);
    // What happened is a record, kept as it was written.
    expect(await list.findByText(marked.description)).toBeInTheDocument();
    expect(list.getByText('5 मिनट पहले')).toBeInTheDocument();
  });

  it('says so in Hindi when nothing happened yet', async () => {
    answerWith([]);
    await showLanguage('hi');
    renderPage(<ActivityBell />, { signedInAs: 'admin' });
    await userEvent.click(await screen.findByRole('button', { name: 'हाल की गतिविधि' }));
    expect(await screen.findByText('कोई हाल की गतिविधि नहीं')).toBeInTheDocument();
  });

  it("shows the server's own sentence for an activity with a code in English", async () => {
    answerWith([approved, marked]);
    renderPage(<ActivityBell />, { signedInAs: 'admin' });
    await userEvent.click(await screen.findByRole('button', { name: 'Recent activity, 2 unread' }));
    expect(await screen.findByText(approved.description)).toBeInTheDocument();
  });

  it('speaks Hindi for an activity with a code, with days in Hindi, and keeps an older row in English', async () => {
    answerWith([approved, marked]);
    await showLanguage('hi');
    renderPage(<ActivityBell />, { signedInAs: 'admin' });
    await userEvent.click(await screen.findByRole('button', { name: 'हाल की गतिविधि, 2 अपठित' }));
    const panel = await screen.findByRole('heading', { name: 'हाल की गतिविधि' });
    const list = within(panel.closest('.MuiPopover-paper') as HTMLElement);
    expect(
      await list.findByText('Mr Iyer ने Asha Verma (कक्षा 9) की 23 नवंबर 2026 से 24 नवंबर 2026 तक की छुट्टी स्वीकृत की (2 दिन)'),
    ).toBeInTheDocument();
    expect(list.queryByText(approved.description)).not.toBeInTheDocument();
    expect(list.getByText(marked.description)).toBeInTheDocument();
  });

  it('says a payment received in Hindi and in Urdu, with its mode in the language', async () => {
    answerWith([paid]);
    await showLanguage('hi');
    const { unmount } = renderPage(<ActivityBell />, { signedInAs: 'admin' });
    await userEvent.click(await screen.findByRole('button', { name: 'हाल की गतिविधि, 1 अपठित' }));
    expect(
      await screen.findByText(
        'Razorpay ने Meera Iyer (+919812345670) से ₹1,250.00 का भुगतान दर्ज किया (ऑनलाइन), रसीद R/2026-27/000123',
      ),
    ).toBeInTheDocument();
    unmount();

    await showLanguage('ur');
    renderPage(<ActivityBell />, { signedInAs: 'admin' });
    await userEvent.click(await screen.findByRole('button', { name: /1/ }));
    expect(
      await screen.findByText(
        'Razorpay نے Meera Iyer (+919812345670) سے ₹1,250.00 کی ادائیگی درج کی (آن لائن)، رسید R/2026-27/000123',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(paid.description)).not.toBeInTheDocument();
  });
});
