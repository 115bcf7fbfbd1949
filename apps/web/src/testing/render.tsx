import { LocalizationProvider } from '@mui/x-date-pickers';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render } from '@testing-library/react';
import type { Role, User } from '@tuitiondesk/contract';
import type { ReactElement, ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { TOKEN_KEY, USER_KEY } from '../lib/api-client';
import { AuthProvider } from '../lib/auth/auth-provider';
import { ToastProvider } from '../lib/toast';
import { user } from './factories';

// The suite shares busy machines: give slow renders time before a query gives up.
configure({ asyncUtilTimeout: 4000 });

export interface RenderOptions {
  /** Where the router starts: `/mark-attendance?class_name=8`. */
  path?: string;
  /**
   * Signs in before the page renders, as a returning user whose session the browser kept, and wraps the
   * page in the session: a role (the factory's admin or teacher) or a whole user. `null`: the session,
   * signed out (the sign-in screen, or a test that signs in itself).
   */
  signedInAs?: Role | User | null;
}

/** Stores a session as the console keeps it between visits: its token, and the user as JSON. */
export function signIn(who: Role | User, token = 'test-token'): User {
  const signedIn = typeof who === 'string' ? user(who) : who;
  localStorage.setItem(TOKEN_KEY, token);
  localStorage.setItem(USER_KEY, JSON.stringify(signedIn));
  return signedIn;
}

/** Queries as the app runs them, without retries, so a failure shows at once. */
export function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

/**
 * Renders a page with what the app gives it: queries, dates, router, toasts, and the session when signed in.
 * A string is the router's path. Answers the user signed in with, if any.
 */
export function renderPage(page: ReactElement, options: string | RenderOptions = {}) {
  const { path = '/', signedInAs } = typeof options === 'string' ? { path: options } : options;
  const signedIn = signedInAs ? signIn(signedInAs) : undefined;
  const client = testQueryClient();
  const session = (children: ReactNode) =>
    signedInAs !== undefined ? <AuthProvider>{children}</AuthProvider> : children;
  const result = render(
    <LocalizationProvider dateAdapter={AdapterDayjs}>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[path]}>
          <ToastProvider>{session(page)}</ToastProvider>
        </MemoryRouter>
      </QueryClientProvider>
    </LocalizationProvider>,
  );
  return { ...result, client, user: signedIn };
}
