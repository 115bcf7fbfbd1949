import { useQueryClient } from '@tanstack/react-query';
import type { User } from '@tuitiondesk/contract';
import { createContext, type ReactNode, useContext, useEffect, useMemo, useReducer, useState } from 'react';
import { ApiError, errorText, forgetKeptAnswers, setUnauthorizedHandler, TOKEN_KEY, USER_KEY } from '../api-client';
import { markSync } from '../offline/mark-sync';
import { forgetOfflineReads } from '../offline/offline-reads';
import { forgetThisDevice } from '../staff-push';
import { fetchCurrentUser, isOtpRequired, login as loginCall } from './api';
import { restoreSession, type SessionState, sessionReducer } from './session';

export interface AuthApi extends SessionState {
  /** True after a 401 ended the session: the sign-in screen says so. */
  sessionExpired: boolean;
  /**
   * Set when the password was right and the account uses two-factor sign-in: the server's words
   * asking for the code. The sign-in screen then shows a code field and sends the code with the form.
   */
  otpPrompt: string | null;
  login: (username: string, password: string, otp?: string) => Promise<boolean>;
  /** Back to username and password only (the user changed the username). */
  cancelOtp: () => void;
  logout: () => void;
  refreshUser: () => Promise<void>;
  setCredentials: (user: User, token: string) => void;
  /** This session's new token, after the server ended the account's other sessions. */
  replaceToken: (token: string) => void;
  /** The user as the server now has it, keeping the current token. */
  updateUser: (user: User) => void;
  clearError: () => void;
}

const AuthContext = createContext<AuthApi | undefined>(undefined);

function persist(user: User | null, token: string | null): void {
  if (token && user) {
    localStorage.setItem(TOKEN_KEY, token);
    localStorage.setItem(USER_KEY, JSON.stringify(user));
  } else {
    const leaving = localStorage.getItem(TOKEN_KEY);
    // The account's marking reminders stop coming to this device (while the token still holds).
    if (leaving) void forgetThisDevice(leaving);
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(USER_KEY);
    forgetKeptAnswers();
  }
  // What the device kept for marking offline belongs to the account that read it (a new sign-in
  // reads its own); marks still waiting stay in the device's queue, sent only by their own account.
  void forgetOfflineReads();
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(sessionReducer, undefined, () => restoreSession(localStorage));
  const [sessionExpired, setSessionExpired] = useState(false);
  const [otpPrompt, setOtpPrompt] = useState<string | null>(null);
  const queryClient = useQueryClient();

  // The actions change only with the query client: the session's state reaches them through dispatch.
  const actions = useMemo(() => {
    const logout = () => {
      persist(null, null);
      setOtpPrompt(null);
      dispatch({ type: 'logout' });
      queryClient.clear();
    };
    return {
      login: async (username: string, password: string, otp?: string) => {
        dispatch({ type: 'login/pending' });
        try {
          const answer = await loginCall(username, password, otp);
          persist(answer.user, answer.access_token);
          setSessionExpired(false);
          setOtpPrompt(null);
          dispatch({ type: 'login/success', user: answer.user, token: answer.access_token });
          return true;
        } catch (error) {
          const message = errorText(error, 'Login failed');
          if (isOtpRequired(error) && !otp) {
            setOtpPrompt(message);
            dispatch({ type: 'login/codeNeeded' });
          } else {
            // A wrong code keeps the code field; any other failure (a wrong password) goes back to the two fields.
            if (!isOtpRequired(error)) setOtpPrompt(null);
            dispatch({ type: 'login/failure', error: message });
          }
          return false;
        }
      },
      cancelOtp: () => setOtpPrompt(null),
      logout,
      refreshUser: async () => {
        if (!localStorage.getItem(TOKEN_KEY)) {
          dispatch({ type: 'me/failure', error: 'No token available' });
          return;
        }
        dispatch({ type: 'me/pending' });
        try {
          const user = await fetchCurrentUser();
          localStorage.setItem(USER_KEY, JSON.stringify(user));
          dispatch({ type: 'me/success', user });
        } catch (error) {
          // No network (a classroom, the console opened from the installed app): the session stands,
          // as the device kept it; the server says whether it still does once it can be reached.
          const kept = restoreSession(localStorage).user;
          if (error instanceof ApiError && error.status === 0 && kept) {
            dispatch({ type: 'me/success', user: kept });
            return;
          }
          persist(null, null);
          // A 401 has already signed the user out and sent them to the sign-in screen, which says why.
          if (error instanceof ApiError && error.status === 401) return;
          dispatch({ type: 'me/failure', error: errorText(error, 'Failed to get user data') });
        }
      },
      setCredentials: (user: User, token: string) => {
        persist(user, token);
        dispatch({ type: 'setCredentials', user, token });
      },
      replaceToken: (token: string) => {
        localStorage.setItem(TOKEN_KEY, token);
        dispatch({ type: 'token/replaced', token });
      },
      updateUser: (user: User) => {
        localStorage.setItem(USER_KEY, JSON.stringify(user));
        dispatch({ type: 'me/success', user });
      },
      clearError: () => dispatch({ type: 'clearError' }),
    };
  }, [queryClient]);
  const { logout, refreshUser } = actions;

  // Any 401 outside the sign-in screen ends the session; the route guard then sends the user to
  // /login?session_expired=true, where the sign-in screen says why.
  useEffect(() => {
    setUnauthorizedHandler(() => {
      setSessionExpired(true);
      logout();
    });
    return () => setUnauthorizedHandler(undefined);
  }, [logout]);

  // A restored token is checked once at start-up, and the user refreshed from the server.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, on start-up
  useEffect(() => {
    if (state.token) void refreshUser();
  }, []);

  // The device's queue of marks is the signed-in account's alone.
  const queueOwner = state.isAuthenticated ? (state.user?.id ?? null) : null;
  useEffect(() => {
    void markSync.switchAccount(queueOwner);
  }, [queueOwner]);

  const api = useMemo<AuthApi>(
    () => ({ ...state, sessionExpired, otpPrompt, ...actions }),
    [state, sessionExpired, otpPrompt, actions],
  );
  return <AuthContext.Provider value={api}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthApi {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth must be used within an AuthProvider');
  return context;
}
