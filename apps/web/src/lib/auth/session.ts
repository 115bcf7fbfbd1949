import type { User } from '@tuitiondesk/contract';

/** The signed-in session: who, with which token, and whether a sign-in or user lookup is under way. */
export interface SessionState {
  user: User | null;
  token: string | null;
  isLoading: boolean;
  error: string | null;
  isAuthenticated: boolean;
}

export type SessionAction =
  | { type: 'login/pending' }
  | { type: 'login/success'; user: User; token: string }
  | { type: 'login/failure'; error: string }
  /** The password was right and the account asks for a two-factor code: not an error yet. */
  | { type: 'login/codeNeeded' }
  | { type: 'logout' }
  | { type: 'me/pending' }
  | { type: 'me/success'; user: User }
  | { type: 'me/failure'; error: string }
  | { type: 'setCredentials'; user: User; token: string }
  /** The server ended the account's other sessions and gave this one a new token. */
  | { type: 'token/replaced'; token: string }
  | { type: 'clearError' };

export const signedOut: SessionState = {
  user: null,
  token: null,
  isLoading: false,
  error: null,
  isAuthenticated: false,
};

/** Pure: storage is written by the provider from the state, never here. */
export function sessionReducer(state: SessionState, action: SessionAction): SessionState {
  switch (action.type) {
    case 'login/pending':
      return { ...state, isLoading: true, error: null };
    case 'login/success':
    case 'setCredentials':
      return { user: action.user, token: action.token, isLoading: false, error: null, isAuthenticated: true };
    case 'login/failure':
      return { ...state, isLoading: false, error: action.error, isAuthenticated: false };
    case 'login/codeNeeded':
      return { ...state, isLoading: false, error: null, isAuthenticated: false };
    case 'logout':
      return { ...signedOut };
    case 'me/pending':
      return { ...state, isLoading: true };
    case 'me/success':
      // A token the server answered for is a session, whatever state it was restored in.
      return { ...state, user: action.user, isLoading: false, error: null, isAuthenticated: Boolean(state.token) };
    case 'me/failure':
      return { user: null, token: null, isLoading: false, error: action.error, isAuthenticated: false };
    case 'token/replaced':
      // Only a session still on can go on with a new token; a signed-out one stays out.
      return state.isAuthenticated ? { ...state, token: action.token } : state;
    case 'clearError':
      return { ...state, error: null };
  }
}

/** Restores the session from the browser's storage: `token`, and `user` as JSON. */
export function restoreSession(storage: Pick<Storage, 'getItem'>): SessionState {
  const token = storage.getItem('token');
  let user: User | null = null;
  try {
    user = JSON.parse(storage.getItem('user') ?? 'null') as User | null;
  } catch {
    user = null;
  }
  return { ...signedOut, token, user, isAuthenticated: Boolean(token) };
}
