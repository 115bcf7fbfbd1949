import { screen, waitFor } from '@testing-library/react';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiRequest } from '../lib/api-client';
import { useAuth } from '../lib/auth/auth-provider';
import { deferred, fakeApi, json, renderPage, user } from '.';

afterEach(() => vi.restoreAllMocks());

function Where() {
  const location = useLocation();
  return <p>at {location.pathname + location.search}</p>;
}

function Who() {
  const { user: signedIn, isAuthenticated, isLoading } = useAuth();
  const location = useLocation();
  return (
    <p>
      {isLoading ? 'checking' : isAuthenticated ? `${signedIn?.full_name} (${signedIn?.role})` : 'signed out'} at{' '}
      {location.pathname + location.search}
    </p>
  );
}

describe('the fake API', () => {
  it('answers by method and path, with or without the prefix, and records each call with its JSON body', async () => {
    const api = fakeApi({
      'GET /students/': () => [200, [{ id: 1 }]],
      'POST /api/v1/students/': ({ body }) => [201, { created: body }],
    });
    expect(await apiRequest('/students/', { query: { search: 'Riya' } })).toEqual([{ id: 1 }]);
    expect(await apiRequest('/students/', { method: 'POST', json: { full_name: 'Riya' } })).toEqual({
      created: { full_name: 'Riya' },
    });
    expect(api.calls.map((call) => [call.method, call.path, call.url.search, call.body])).toEqual([
      ['GET', '/students/', '?search=Riya', undefined],
      ['POST', '/students/', '', { full_name: 'Riya' }],
    ]);
  });

  it('answers 404 for what no route names, unless told otherwise, and takes a whole Response', async () => {
    fakeApi({ 'GET /empty': () => new Response('', { status: 500 }) });
    await expect(apiRequest('/nowhere')).rejects.toMatchObject({ status: 404, message: 'Not found' });
    await expect(apiRequest('/empty')).rejects.toMatchObject({ status: 500 });
    vi.restoreAllMocks();
    fakeApi({}, { otherwise: ({ path }) => json({ detail: `closed: ${path}` }, 503) });
    await expect(apiRequest('/anything')).rejects.toMatchObject({ status: 503, message: 'closed: /anything' });
  });

  it('holds a deferred reply until the test releases it', async () => {
    const reply = deferred();
    fakeApi({ 'GET /slow': () => reply.promise });
    let answered: unknown;
    const call = apiRequest('/slow').then((body) => {
      answered = body;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(answered).toBeUndefined();
    reply.release([200, { done: true }]);
    await call;
    expect(answered).toEqual({ done: true });
  });
});

describe('renderPage', () => {
  it('starts the router at the path it is given', async () => {
    renderPage(<Where />, '/mark-attendance?class_name=8');
    expect(screen.getByText('at /mark-attendance?class_name=8')).toBeInTheDocument();
  });

  it('signs in as a role: the session is stored, and /auth/me answers that user', async () => {
    const api = fakeApi({});
    const { user: signedIn } = renderPage(<Who />, { signedInAs: 'teacher' });
    expect(signedIn).toEqual(user('teacher'));
    expect(await screen.findByText('Asha Rao (teacher) at /')).toBeInTheDocument();
    expect(api.calls.map((call) => call.path)).toEqual(['/auth/me']);
    expect(localStorage.getItem('token')).toBe('test-token');
  });

  it('signs in as a whole user, and a route for /auth/me wins over the stored one', async () => {
    const admin = user('admin', { full_name: 'Meera Admin' });
    fakeApi({ 'GET /auth/me': () => [200, { ...admin, full_name: 'Meera Admin (renamed)' }] });
    renderPage(<Who />, { signedInAs: admin, path: '/students' });
    expect(await screen.findByText('Meera Admin (renamed) (admin) at /students')).toBeInTheDocument();
  });

  it('without a stored token, /auth/me answers 401', async () => {
    fakeApi({});
    await expect(apiRequest('/auth/me')).rejects.toMatchObject({ status: 401 });
    await waitFor(() => expect(localStorage.getItem('token')).toBeNull());
  });
});
