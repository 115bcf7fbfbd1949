import type { User } from '@tuitiondesk/contract';
import type { UserRow } from './repository';

export type { AuthenticatedUser } from '../../plugins/authentication';

/** The user as the API shows it: what the row holds, never the hash, and whether two-factor is due. */
export function publicUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    full_name: row.full_name,
    role: row.role,
    email: row.email,
    must_change_password: row.must_change_password,
    two_factor_enabled: row.two_factor_enabled,
    must_enrol_two_factor: row.two_factor_required && !row.two_factor_enabled,
    language: row.language ?? null,
  };
}
