import { useQuery } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiGet } from '../../lib/api-query';
import { noteReached } from '../../lib/server-reach';
import { type FakeCall, type FakeReply, fakeApi, renderPage } from '../../testing';
import { OFFLINE_TEXT, UNREACHABLE_TEXT } from './outage-banner';
import Shell from './shell';

/** A page of names read from the server, as the console's lists are. */
function NamesPage() {
  const names = useQuery({ queryKey: ['names'], queryFn: apiGet<{ name: string }[]>('/names') });
  return (
    <ul aria-label="Names">
      {(names.data ?? []).map((row) => (
        <li key={row.name}>{row.name}</li>
      ))}
    </ul>
  );
}

function Broken(): never {
  throw new TypeError("Cannot read properties of undefined (reading 'map')");
}

/**
 * The shell with a page, in front of a server that answers until `server.state` says otherwise: 'down'
 * (no answer at all, as a stopped server) or a gateway's status (a proxy in front of one).
 */
function renderShell(page = <NamesPage />) {
  const server: { state: 'up' | 'down' | number } = { state: 'up' };
  const answer =
    (up: (call: FakeCall) => FakeReply) =>
    (call: FakeCall): FakeReply => {
      if (server.state === 'down') throw new TypeError('Failed to fetch');
      if (typeof server.state === 'number') return [server.state, { detail: 'Bad gateway' }];
      return up(call);
    };
  fakeApi(
    {
      'GET /names': answer(() => [200, [{ name: 'Asha Verma' }, { name: 'Bala Das' }]]),
      'GET /activities/recent': answer(() => [200, { activities: [], count: 0 }]),
    },
    { otherwise: answer(() => [404, { detail: 'Not found' }]) },
  );
  const rendered = renderPage(
    <Routes>
      <Route path="/" element={<Shell />}>
        <Route path="names" element={page} />
      </Route>
    </Routes>,
    { path: '/names', signedInAs: 'admin' },
  );
  return { ...rendered, server };
}

afterEach(() => {
  vi.restoreAllMocks();
  noteReached();
});

describe('the shell while the server cannot be reached', () => {
  it('keeps what the page showed, says the server cannot be reached, and Retry clears it once the server answers', async () => {
    const u = userEvent.setup({ delay: null });
    const { client, server } = renderShell();
    const names = await screen.findByRole('list', { name: 'Names' });
    await within(names).findByText('Asha Verma');
    expect(screen.queryByText(UNREACHABLE_TEXT)).not.toBeInTheDocument();

    server.state = 'down';
    await client.refetchQueries({ type: 'active' });
    expect(await screen.findByText(UNREACHABLE_TEXT)).toBeInTheDocument();
    expect(within(names).getByText('Asha Verma')).toBeInTheDocument();
    expect(within(names).getByText('Bala Das')).toBeInTheDocument();

    server.state = 'up';
    await u.click(screen.getByRole('button', { name: 'Retry' }));
    await vi.waitFor(() => expect(screen.queryByText(UNREACHABLE_TEXT)).not.toBeInTheDocument());
    expect(within(names).getByText('Asha Verma')).toBeInTheDocument();
  });

  it('says so for a gateway answering 502, 503 or 504 in the server’s place, and goes by itself on the next answer', async () => {
    const { client, server } = renderShell();
    await screen.findByText('Asha Verma');
    for (const status of [502, 503, 504]) {
      server.state = status;
      await client.refetchQueries({ type: 'active' });
      expect(await screen.findByText(UNREACHABLE_TEXT)).toBeInTheDocument();
      server.state = 'up';
      await client.refetchQueries({ type: 'active' });
      await vi.waitFor(() => expect(screen.queryByText(UNREACHABLE_TEXT)).not.toBeInTheDocument());
    }
  });

  it('does not take an error the server answered for an outage', async () => {
    const { client, server } = renderShell();
    await screen.findByText('Asha Verma');
    server.state = 500;
    await client.refetchQueries({ type: 'active' });
    await vi.waitFor(() => expect(client.getQueryState(['names'])?.status).toBe('error'));
    expect(screen.queryByText(UNREACHABLE_TEXT)).not.toBeInTheDocument();
  });

  it('says the device is offline when the browser says so', async () => {
    renderShell();
    await screen.findByText('Asha Verma');
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    window.dispatchEvent(new Event('offline'));
    expect(await screen.findByText(OFFLINE_TEXT)).toBeInTheDocument();
    online.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(screen.queryByText(OFFLINE_TEXT)).not.toBeInTheDocument());
  });
});

describe('a page that fails inside the shell', () => {
  it('says so in the page’s place and keeps the menu', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderShell(<Broken />);
    expect(await screen.findByText('Something went wrong on this page.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    // jsdom is narrow: the menu is the drawer behind Open menu, still there with every item.
    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    const menu = await screen.findByRole('navigation', { name: 'Main menu' });
    expect(within(menu).getByRole('link', { name: /Attendance History/ })).toBeInTheDocument();
  });
});
