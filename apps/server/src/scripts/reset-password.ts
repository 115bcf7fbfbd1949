/**
 * `npm run reset-password -- <username>`: the way back in for an owner locked out of the admin
 * account (issue 28, item 7; ADR 046). Sets a new random password, prints it once, forces a change at
 * the next sign-in, ends every session of the account and switches it back on if another admin had
 * switched it off. The activity feed and the audit log name the server command as who did it.
 *
 * On the embedded database it takes DATA_DIR's lock, so it refuses while the server runs (stop it,
 * run this, start it); with DATABASE_URL it works beside running servers, whose next request from
 * that account finds its sessions ended.
 */
import { loadConfig } from '../config';
import { runWithAuditSource } from '../db/audit-context';
import { migrate } from '../db/migrate';
import { withConfiguredDatabase } from '../db/open';
import { AppError } from '../lib/errors';
import { resetPasswordByCommand, SERVER_COMMAND } from '../modules/auth';
import { runScript } from './run-script';

class ResetRefusedError extends Error {}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const username = args[0]?.trim();
  if (args.length !== 1 || !username) {
    throw new ResetRefusedError(
      'Usage: npm run reset-password -- <username>   (for example: npm run reset-password -- admin)',
    );
  }
  const config = loadConfig();
  await withConfiguredDatabase(config.database, async (db) => {
    await migrate(db);
    const source = () => ({ actor_id: null, actor_name: SERVER_COMMAND, address: null, way: 'system' as const });
    const { account, password, switchedOn } = await runWithAuditSource(source, () =>
      resetPasswordByCommand(db, username),
    );
    process.stdout.write(
      [
        `New password for ${account.username} (${account.full_name}), shown once:`,
        '',
        `  ${password}`,
        '',
        'Sign in with it; the console then asks for a new password of your own. Every session of this account has ended.',
        ...(switchedOn ? ['The account had been switched off by another admin: it is switched back on.'] : []),
        ...(config.database.kind === 'pglite' ? ['Start the server again (npm start) to sign in.'] : []),
        '',
      ].join('\n'),
    );
  });
}

runScript(main, {
  locked:
    'The password was not reset: the running server holds the data. Stop the server, run npm run reset-password -- <username> again, then start the server.',
  known: (error) =>
    error instanceof ResetRefusedError || error instanceof AppError
      ? `${error.message}; nothing was changed.`
      : undefined,
  failed: 'The password could not be reset (nothing was changed)',
});
