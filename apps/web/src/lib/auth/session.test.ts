import type { User } from '@tuitiondesk/contract';
import { describe, expect, it } from 'vitest';
import { restoreSession, type SessionState, sessionReducer, signedOut } from './session';

const user: User = {
  id: 1,
  username: 'admin',
  full_name: 'Administrator',
  role: 'admin',
  email: null,
  must_change_password: false,
};

function storage(entries: Record<string, string>) {
  return { getItem: (key: string) => entries[key] ?? null };
}

describe('the session', () => {
  it('restores token and user from storage, authenticated when a token exists', () => {
    expect(restoreSession(storage({ token: 'abc', user: JSON.stringify(user) }))).toEqual({
      ...signedOut,
      token: 'abc',
      user,
      isAuthenticated: true,
    });
    expect(restoreSession(storage({}))).toEqual(signedOut);
    expect(restoreSession(storage({ token: 'abc', user: '{not json' })).user).toBeNull();
  });

  it('login: pending clears the error, success authenticates, failure stores the error', () => {
    const failed: SessionState = { ...signedOut, error: 'old' };
    const pending = sessionReducer(failed, { type: 'login/pending' });
    expect(pending).toMatchObject({ isLoading: true, error: null });
    expect(sessionReducer(pending, { type: 'login/success', user, token: 't' })).toEqual({
      user,
      token: 't',
      isLoading: false,
      error: null,
      isAuthenticated: true,
    });
    expect(sessionReducer(pending, { type: 'login/failure', error: 'Login failed' })).toMatchObject({
      isLoading: false,
      error: 'Login failed',
      isAuthenticated: false,
    });
  });

  it('login asking for a two-factor code ends loading with no error, not signed in', () => {
    const pending = sessionReducer({ ...signedOut, error: 'old' }, { type: 'login/pending' });
    expect(sessionReducer(pending, { type: 'login/codeNeeded' })).toEqual(signedOut);
  });

  it('logout clears user, token and error', () => {
    const signedIn: SessionState = { user, token: 't', isLoading: false, error: 'x', isAuthenticated: true };
    expect(sessionReducer(signedIn, { type: 'logout' })).toEqual(signedOut);
  });

  it('current-user fetch: success replaces the user, failure ends the session', () => {
    const signedIn: SessionState = { user, token: 't', isLoading: false, error: null, isAuthenticated: true };
    const pending = sessionReducer(signedIn, { type: 'me/pending' });
    expect(pending.isLoading).toBe(true);
    const renamed = { ...user, full_name: 'Head Admin' };
    expect(sessionReducer(pending, { type: 'me/success', user: renamed })).toMatchObject({
      user: renamed,
      isLoading: false,
      error: null,
      isAuthenticated: true,
    });
    expect(sessionReducer(pending, { type: 'me/failure', error: 'Failed to get user data' })).toEqual({
      ...signedOut,
      error: 'Failed to get user data',
    });
  });

  it('set-credentials authenticates; clear-error empties the error', () => {
    expect(sessionReducer(signedOut, { type: 'setCredentials', user, token: 'n' })).toMatchObject({
      token: 'n',
      isAuthenticated: true,
    });
    expect(sessionReducer({ ...signedOut, error: 'e' }, { type: 'clearError' }).error).toBeNull();
  });
});

describe('a session that goes on with a new token', () => {
  const signedIn: SessionState = { user, token: 'before', isLoading: false, error: null, isAuthenticated: true };

  it('takes the token the server handed over (two-factor turned on or off), keeping the user', () => {
    expect(sessionReducer(signedIn, { type: 'token/replaced', token: 'after' })).toEqual({
      ...signedIn,
      token: 'after',
    });
  });

  it('stays signed out when the new token comes after a sign-out', () => {
    expect(sessionReducer(signedOut, { type: 'token/replaced', token: 'after' })).toEqual(signedOut);
  });

  it('counts a token the server answered /auth/me for as signed in, so the route guard stops asking', () => {
    const lookingUp: SessionState = { ...signedOut, token: 'stored', isLoading: true };
    expect(sessionReducer(lookingUp, { type: 'me/success', user })).toMatchObject({
      user,
      isAuthenticated: true,
      isLoading: false,
    });
  });
});
