import type { Queryable } from '../../db/database';

const ABSENCE_ALERTS_KEY = 'absence_alerts';

/** On unless the centre turned it off (migration 0002 stores 'true'). */
export async function readAbsenceAlerts(db: Queryable): Promise<boolean> {
  const rows = await db.query<{ value: string }>('SELECT value FROM settings WHERE key = $1', [ABSENCE_ALERTS_KEY]);
  return rows[0]?.value !== 'false';
}

export async function writeAbsenceAlerts(tx: Queryable, isOn: boolean): Promise<void> {
  await tx.query(
    `INSERT INTO settings (key, value) VALUES ($1, $2)
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
    [ABSENCE_ALERTS_KEY, isOn ? 'true' : 'false'],
  );
}

export const REQUIRE_ADMIN_TWO_FACTOR_KEY = 'require_admin_two_factor';

/** Off unless an admin turned it on (migration 0005 stores 'false'). */
export async function readRequireAdminTwoFactor(db: Queryable): Promise<boolean> {
  const rows = await db.query<{ value: string }>('SELECT value FROM settings WHERE key = $1', [
    REQUIRE_ADMIN_TWO_FACTOR_KEY,
  ]);
  return rows[0]?.value === 'true';
}

export async function writeRequireAdminTwoFactor(tx: Queryable, isOn: boolean): Promise<void> {
  await tx.query(
    `INSERT INTO settings (key, value) VALUES ($1, $2)
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
    [REQUIRE_ADMIN_TWO_FACTOR_KEY, isOn ? 'true' : 'false'],
  );
}
