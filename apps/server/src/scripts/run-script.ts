import { ConfigError } from '../config';
import { DataDirLockedError } from '../db/data-dir-lock';

export interface ScriptFailures {
  /** What to do when the server holds DATA_DIR, said after the lock's own message. */
  locked: string;
  /** The whole message for the script's own errors; undefined for anything unexpected. */
  known: (error: unknown) => string | undefined;
  /** Put before the message of anything unexpected: `<failed>: <message>`. */
  failed: string;
}

/**
 * Runs a script's `main` and exits: 0 when it is done, 1 with one message on stderr otherwise (a
 * configuration error or the script's own refusal as it is, the data directory's lock with what to
 * do, anything else after `failed`).
 */
export function runScript(main: () => Promise<void>, failures: ScriptFailures): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      const text =
        error instanceof DataDirLockedError
          ? `${message}\n${failures.locked}`
          : error instanceof ConfigError
            ? message
            : (failures.known(error) ?? `${failures.failed}: ${message}`);
      process.stderr.write(`${text}\n`);
      process.exit(1);
    },
  );
}
