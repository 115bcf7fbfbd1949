import { MIN_PASSWORD_LENGTH } from '@tuitiondesk/contract';
import type { TFunction } from '../../i18n';
import { translatedError } from '../../i18n/error-texts';
import { ApiError } from '../../lib/api-client';

/** A problem with the dialog's fields, and the field it belongs under (none: the form as a whole). */
export interface PasswordProblem {
  message: string;
  field?: 'next' | 'confirm';
}

/**
 * The Change Password dialog's checks, in the words staff see (the `account` namespace's `password`
 * texts, through the dialog's `t`); undefined when all pass.
 */
export function checkNewPassword(
  fields: {
    current: string;
    next: string;
    confirm: string;
  },
  t: TFunction<'account'>,
): PasswordProblem | undefined {
  if (!fields.current || !fields.next || !fields.confirm) return { message: t('password.allRequired') };
  if (fields.next !== fields.confirm) return { message: t('password.mismatch'), field: 'confirm' };
  if (fields.next.length < MIN_PASSWORD_LENGTH)
    return { message: t('password.tooShort', { min: MIN_PASSWORD_LENGTH }), field: 'next' };
  return undefined;
}

const NEW_PASSWORD_FIELD = 'new_password: ';

/**
 * The server's refusal of the new password (common, holds the username or name, only spaces: a 422
 * `new_password: …`), worded for the field it is shown under: the error's code in the language in use
 * where there is a text for it, else the English reason after "New password"; undefined for any other
 * failure.
 */
export function newPasswordRefusal(error: unknown, t: TFunction<'account'>): string | undefined {
  if (!(error instanceof ApiError) || error.status !== 422 || !error.detail?.startsWith(NEW_PASSWORD_FIELD)) {
    return undefined;
  }
  return (
    translatedError(error.code, error.params) ??
    t('password.refused', { reason: error.detail.slice(NEW_PASSWORD_FIELD.length) })
  );
}
