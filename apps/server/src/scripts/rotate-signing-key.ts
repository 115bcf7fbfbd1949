/**
 * `npm run rotate-signing-key`: replaces the signing key in the key file (KEY_FILE, ADR 017), which
 * ends every session: staff, parent and delivery-receipt tokens signed with the old key stop
 * verifying once the server restarts. The sealing key and the VAPID pair stay, so two-factor sign-in
 * and the parents' push subscriptions go on working.
 *
 * A running server keeps the key it read at start in memory: on the embedded database this refuses
 * while a server holds DATA_DIR; with PostgreSQL it cannot know, and says to restart every instance.
 */
import { loadConfig } from '../config';
import { lockDataDir } from '../db/data-dir-lock';
import { requireKeyFile, rotateSigningKey } from '../lib/server-keys';
import { runScript } from './run-script';

class RotationRefusedError extends Error {}

async function main(): Promise<void> {
  if (process.argv.length > 2) throw new RotationRefusedError('Usage: npm run rotate-signing-key');
  const config = loadConfig();
  if (config.jwtSecret !== undefined) {
    throw new RotationRefusedError(
      'JWT_SECRET is set, so tokens are signed with it and not with the key file: nothing was changed. ' +
        'To end every session, set JWT_SECRET to a new random value of at least 32 characters ' +
        '(for example: openssl rand -base64 48) on every instance, and restart them.',
    );
  }
  // Checked before the lock, which would create a DATA_DIR that is not there.
  requireKeyFile(config.keyFile);
  const release = config.database.kind === 'pglite' ? lockDataDir(config.database.dataDir as string) : () => {};
  try {
    rotateSigningKey(config.keyFile);
  } finally {
    release();
  }
  process.stdout.write(
    [
      `The signing key in ${config.keyFile} was replaced. Every session has ended:`,
      '  staff sign in again with their passwords (and two-factor codes, which still work);',
      "  parents' devices must sign in again with their access code (the centre can issue a new one if it is lost).",
      ...(config.database.kind === 'postgres'
        ? [
            'Restart every server instance now, each with this key file (copy it to every instance):',
            'until it restarts, an instance still accepts the old tokens and signs new ones with the old key.',
          ]
        : ['Start the server (npm start): it signs with the new key.']),
      '',
    ].join('\n'),
  );
}

runScript(main, {
  locked:
    'A running server keeps the signing key it read at start, so the key was not changed. Stop the server, ' +
    'run npm run rotate-signing-key again, then start the server.',
  known: (error) => (error instanceof RotationRefusedError ? error.message : undefined),
  failed: 'The signing key could not be replaced (the key file is as it was)',
});
