import type { ChangePasswordRequest, ChangePasswordResponse, LoginResponse, User } from '@tuitiondesk/contract';
import { apiRequest } from '../../lib/api-client';

export function login(username: string, password: string): Promise<LoginResponse> {
  return apiRequest('/auth/login', { method: 'POST', body: new URLSearchParams({ username, password }) });
}

export function fetchCurrentUser(): Promise<User> {
  return apiRequest('/auth/me');
}

export function changePassword(request: ChangePasswordRequest, token?: string): Promise<ChangePasswordResponse> {
  return apiRequest('/auth/change-password', { method: 'POST', json: request, token });
}
