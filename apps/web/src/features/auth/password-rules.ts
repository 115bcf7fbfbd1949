import { MIN_PASSWORD_LENGTH } from '@tuitiondesk/contract';

/** The spec's checks of the Change Password dialog, in its words; undefined when all pass. */
export function checkNewPassword(fields: { current: string; next: string; confirm: string }): string | undefined {
  if (!fields.current || !fields.next || !fields.confirm) return 'All fields are required';
  if (fields.next !== fields.confirm) return 'New passwords do not match';
  if (fields.next.length < MIN_PASSWORD_LENGTH)
    return `New password must be at least ${MIN_PASSWORD_LENGTH} characters`;
  return undefined;
}
