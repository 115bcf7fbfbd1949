import { LocalizationProvider } from '@mui/x-date-pickers';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { ToastProvider } from '../../lib/toast';

/** A fake API: answers by method and path, records every call. Only `fetch`, the outside world, is faked. */
export function fakeApi(routes: Record<string, (request: { url: URL; body: unknown }) => [number, unknown]>) {
  const calls: { method: string; url: URL; body: unknown }[] = [];
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, url, body });
    const route = routes[`${method} ${url.pathname}`];
    const [status, answer] = route ? route({ url, body }) : [404, { detail: 'Not found' }];
    return new Response(JSON.stringify(answer), { status, headers: { 'content-type': 'application/json' } });
  });
  return { calls, spy };
}

/** Renders a page with what the app gives it: queries, dates, router, toasts. */
export function renderPage(page: ReactElement, path = '/') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const result = render(
    <LocalizationProvider dateAdapter={AdapterDayjs}>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[path]}>
          <ToastProvider>{page}</ToastProvider>
        </MemoryRouter>
      </QueryClientProvider>
    </LocalizationProvider>,
  );
  return { ...result, client };
}
