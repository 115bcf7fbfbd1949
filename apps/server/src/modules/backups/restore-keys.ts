/**
 * A backup holds no key (ADR 017): its two-factor secrets open, its recovery codes match and its
 * parents' push subscriptions work only with the key file of the installation it was taken on, which
 * its header names by key id. This is what a restore does about that.
 */
import { type BackupHeader, KEY_ID_SETTING, type RestoreKeyPolicy, RestoreRefusedError } from '../../db/backup';
import { convertLegacySecrets } from '../../legacy-secrets';
import { keyIdOf, loadOrCreateKeyFile, type ServerKeys } from '../../lib/server-keys';
import { resetTwoFactorOf } from '../auth';

export const RESET_TWO_FACTOR_OPTION = '--reset-two-factor';
const ACTOR = 'npm run restore';

export interface RestoreKeysOptions {
  /** KEY_FILE of the installation restored onto. */
  keyFile: string;
  /** Its keys; undefined when it has no key file yet (a new machine). */
  keys: ServerKeys | undefined;
  /** JWT_SECRET: it sealed the two-factor secrets of a version 1 backup when it was set. */
  jwtSecret: string | undefined;
  /** Restore anyway when the keys do not fit, turning two-factor sign-in off where it cannot work. */
  resetTwoFactor: boolean;
}

/** The key file's keys: what restores the backup's rows as they were, or refuses, or resets two-factor. */
export function restoreKeys(options: RestoreKeysOptions): RestoreKeyPolicy {
  const ours = options.keys ? keyIdOf(options.keys.sealingKey) : undefined;
  const isOtherInstallation = (header: BackupHeader) => Boolean(header.key_id) && header.key_id !== ours;

  return {
    check(header, label) {
      if (!isOtherInstallation(header) || options.resetTwoFactor) return;
      const here = ours
        ? `the key file ${options.keyFile} (KEY_FILE) here has key id ${ours}`
        : `there is no key file at ${options.keyFile} (KEY_FILE) here`;
      throw new RestoreRefusedError(
        `The file ${label} was taken on an installation with another key file (key id ${header.key_id}), and ${here}. ` +
          "Its two-factor secrets, recovery codes and parents' push subscriptions work only with that installation's key file. " +
          `Either copy that installation's key file (server-keys.json, in its DATA_DIR unless KEY_FILE named another) to ${options.keyFile} and restore again, ` +
          `or restore with ${RESET_TWO_FACTOR_OPTION}: two-factor sign-in is then turned off for every account that had it ` +
          "(they sign in with their password and set it up again), and parents' devices turn notifications on again. Nothing was changed.",
      );
    },

    async apply(tx, header, label) {
      // Created only now, once the file has been checked and the restore is going ahead.
      const keys = options.keys ?? loadOrCreateKeyFile(options.keyFile);
      const keyId = keyIdOf(keys.sealingKey);
      if (isOtherInstallation(header)) {
        await resetTwoFactorOf(tx, undefined, ACTOR, 'two_factor.reset_other_installation');
        // No push service takes a push to a device subscribed to the other installation's VAPID key;
        // the parent app and the console subscribe again when notifications are turned on.
        await tx.query('DELETE FROM push_subscriptions');
        await tx.query('DELETE FROM staff_push_subscriptions');
      }
      await convertLegacySecrets(tx, options.keyFile, keys, options.jwtSecret, async (_, ids) => {
        if (!options.resetTwoFactor) {
          throw new RestoreRefusedError(
            `The file ${label} holds two-factor secrets sealed with a JWT_SECRET that is not set here (${ids.length} account(s)). ` +
              'Restore with JWT_SECRET set to the value the installation it came from had, or restore with ' +
              `${RESET_TWO_FACTOR_OPTION} to turn two-factor sign-in off for those accounts (they sign in with their password ` +
              'and set it up again). Nothing was changed.',
          );
        }
        await resetTwoFactorOf(tx, ids, ACTOR, 'two_factor.reset_unreadable_secret');
      });
      await tx.query(
        `INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
        [KEY_ID_SETTING, keyId],
      );
    },
  };
}
