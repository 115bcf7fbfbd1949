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
  actor: 'Mrs Rao',
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
});
