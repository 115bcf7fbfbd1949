import type {
  ChangePasswordRequest,
  ChangePasswordResponse,
  LoginError,
  LoginResponse,
  User,
} from '@tuitiondesk/contract';
import { ApiError, apiRequest } from '../api-client';

/** `otp`: for an account with two-factor sign-in, a code from the authenticator app or a recovery code. */
export function login(username: string, password: string, otp?: string): Promise<LoginResponse> {
  const form = new URLSearchParams({ username, password });
  if (otp) form.set('otp', otp);
  return apiRequest('/auth/login', { method: 'POST', body: form });
}

/** True when a sign-in failed because the account needs a two-factor code (none was given, or a wrong one). */
export function isOtpRequired(error: unknown): boolean {
  return (
    error instanceof ApiError && error.status === 401 && (error.body as LoginError | undefined)?.otp_required === true
  );
}

export function fetchCurrentUser(): Promise<User> {
  return apiRequest('/auth/me');
}

export function changePassword(request: ChangePasswordRequest, token?: string): Promise<ChangePasswordResponse> {
  return apiRequest('/auth/change-password', { method: 'POST', json: request, token, replacesToken: true });
}
