import { MIN_PASSWORD_LENGTH } from '@tuitiondesk/contract';
import { ApiError } from '../../lib/api-client';

/** A problem with the dialog's fields, and the field it belongs under (none: the form as a whole). */
export interface PasswordProblem {
  message: string;
  field?: 'next' | 'confirm';
}

/** The Change Password dialog's checks, in the words staff see; undefined when all pass. */
export function checkNewPassword(fields: {
  current: string;
  next: string;
  confirm: string;
}): PasswordProblem | undefined {
  if (!fields.current || !fields.next || !fields.confirm) return { message: 'All fields are required' };
  if (fields.next !== fields.confirm) return { message: 'New passwords do not match', field: 'confirm' };
  if (fields.next.length < MIN_PASSWORD_LENGTH)
    return { message: `New password must be at least ${MIN_PASSWORD_LENGTH} characters`, field: 'next' };
  return undefined;
}

const NEW_PASSWORD_FIELD = 'new_password: ';

/**
 * The server's refusal of the new password (common, holds the username or name, only spaces: a 422
 * `new_password: …`), worded for the field it is shown under; undefined for any other failure.
 */
export function newPasswordRefusal(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.status !== 422 || !error.detail?.startsWith(NEW_PASSWORD_FIELD)) {
    return undefined;
  }
  return `New password ${error.detail.slice(NEW_PASSWORD_FIELD.length)}`;
}
