import { createTheme, ThemeProvider } from '@mui/material';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DashboardSummary, User } from '@tuitiondesk/contract';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '../../lib/toast';
import { AuthProvider } from '../auth/auth-provider';
import DashboardPage from './dashboard-page';

// The suite shares busy machines: give slow renders time before a query gives up.
configure({ asyncUtilTimeout: 4000 });

const summary: DashboardSummary = {
  date: '2026-11-22',
  total_students: 120,
  total_teachers: 9,
  active_classes: 4,
  pending_approval: 17,
  messages_sent: 43,
  attendance_rate: 92.5,
  classes_without_attendance: [{ class_name: '8', students: 31 }],
};

function userOf(role: User['role']): User {
  return {
    id: 2,
    username: role === 'admin' ? 'admin' : 'tch0001',
    full_name: role === 'admin' ? 'Centre Admin' : 'Asha Rao',
    role,
    email: null,
    must_change_password: false,
  };
}

const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

/** Answers /auth/me with the user, and the summary once `release` is called (or at once). */
function serve(user: User, answer: () => Promise<DashboardSummary> = async () => summary) {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input);
    if (url.endsWith('/auth/me')) return json(user);
    if (url.endsWith('/dashboard/summary')) return json(await answer());
    return new Response(JSON.stringify({ detail: 'Not found' }), { status: 404 });
  });
}

function renderAs(user: User) {
  localStorage.setItem('token', 'token-1');
  localStorage.setItem('user', JSON.stringify(user));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <ThemeProvider theme={createTheme()}>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <ToastProvider>
            <AuthProvider>
              <DashboardPage />
            </AuthProvider>
          </ToastProvider>
        </MemoryRouter>
      </QueryClientProvider>
    </ThemeProvider>,
  );
}

/** The card whose label is `label`. */
function card(label: string): HTMLElement {
  const element = screen.getByText(label).closest('.MuiCard-root');
  if (!(element instanceof HTMLElement)) throw new Error(`no card ${label}`);
  return element;
}

afterEach(() => vi.restoreAllMocks());

describe('Dashboard', { timeout: 20_000 }, () => {
  it('shows each figure on its card, the attendance rate with a percent sign and messages_sent', async () => {
    serve(userOf('admin'));
    renderAs(userOf('admin'));
    expect(await within(card('Total Students')).findByText('120')).toBeInTheDocument();
    expect(within(card('Total Students')).getByText('Active enrolled')).toBeInTheDocument();
    expect(within(card('Teachers')).getByText('9')).toBeInTheDocument();
    expect(within(card('Teachers')).getByText('Active staff')).toBeInTheDocument();
    expect(within(card('Pending Approval')).getByText('17')).toBeInTheDocument();
    expect(within(card('Pending Approval')).getByText('Attendance records')).toBeInTheDocument();
    expect(within(card('Messages Sent')).getByText('43')).toBeInTheDocument();
    expect(within(card('Messages Sent')).getByText('This month')).toBeInTheDocument();
    expect(within(card('Attendance Rate')).getByText('92.5%')).toBeInTheDocument();
    expect(within(card('Attendance Rate')).getByText('This month avg')).toBeInTheDocument();
    expect(within(card('Active Classes')).getByText('4')).toBeInTheDocument();
  });

  it('shows skeletons, not made-up numbers, until the summary arrives', async () => {
    let release: (value: DashboardSummary) => void = () => undefined;
    const pending = new Promise<DashboardSummary>((resolve) => {
      release = resolve;
    });
    serve(userOf('admin'), () => pending);
    renderAs(userOf('admin'));
    for (const label of ['Total Students', 'Teachers', 'Pending Approval', 'Messages Sent', 'Attendance Rate']) {
      expect(screen.getByLabelText(`Loading ${label}`)).toBeInTheDocument();
    }
    expect(screen.getByLabelText('Loading Active Classes')).toBeInTheDocument();
    for (const placeholder of ['23', '145', '92%', '8']) expect(screen.queryByText(placeholder)).toBeNull();
    release(summary);
    expect(await screen.findByText('92.5%')).toBeInTheDocument();
    expect(screen.queryByLabelText('Loading Total Students')).toBeNull();
  });

  it('lists the classes without attendance today, each linking to Mark Attendance', async () => {
    serve(userOf('admin'));
    renderAs(userOf('admin'));
    const link = await screen.findByRole('link', { name: /Class 8/ });
    expect(link).toHaveAttribute('href', '/mark-attendance?class_name=8');
    expect(link).toHaveTextContent('31 student(s)');
  });

  it('says so when every class is marked', async () => {
    serve(userOf('admin'), async () => ({ ...summary, classes_without_attendance: [] }));
    renderAs(userOf('admin'));
    expect(await screen.findByText('Attendance has been marked for every class today.')).toBeInTheDocument();
  });

  it('offers Change Password to teachers, opening the dialog', async () => {
    serve(userOf('teacher'));
    renderAs(userOf('teacher'));
    expect(await screen.findByText(/Asha Rao/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
  });

  it('does not offer Change Password to admins', async () => {
    serve(userOf('admin'));
    renderAs(userOf('admin'));
    expect(await screen.findByText('120')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Change Password' })).toBeNull();
  });

  it('only logs a failed fetch', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    serve(userOf('admin'), async () => {
      throw new Error('down');
    });
    renderAs(userOf('admin'));
    await vi.waitFor(() => expect(log).toHaveBeenCalled());
    expect(screen.queryByRole('alert')).toBeNull();
    expect(within(card('Total Students')).getByText('—')).toBeInTheDocument();
  });
});
