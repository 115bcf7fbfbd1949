import type { AppConfig } from '../../config';
import type { Queryable } from '../../db/database';
import { PolledWorker, PollingLoop } from '../../lib/polling-loop';
import { processTimeZone, setCentreTimeZone } from '../../lib/time';
import { CENTRE_TIME_ZONE_SETTING } from './settings';

/**
 * The zone the centre's clock runs in (ADR 042): the server's TZ when its environment sets one (fixed:
 * the console shows it and cannot change it), else the one an admin stored, else (not set up yet) the
 * server's own.
 */
export function centreZoneOf(config: Pick<AppConfig, 'timeZone'>, stored: string): string {
  return config.timeZone ?? (stored || processTimeZone());
}

/** Reads the stored zone and sets the clock every date function reads (lib/time.ts) to the centre's. */
export async function followCentreClock(ctx: { config: Pick<AppConfig, 'timeZone'>; db: Queryable }): Promise<string> {
  const zone = centreZoneOf(ctx.config, await CENTRE_TIME_ZONE_SETTING.read(ctx.db));
  setCentreTimeZone(zone);
  return zone;
}

/** How often an instance looks whether another one changed the centre's zone. */
export const CENTRE_CLOCK_POLL_MS = 30_000;

export interface CentreClockLogger {
  error(object: object, message: string): void;
}

/**
 * Keeps this instance's clock on the centre's zone when another instance (on the same PostgreSQL
 * database) changed it: the instance that made the change follows it at once, the others within
 * `CENTRE_CLOCK_POLL_MS`.
 */
export class CentreClockLoop extends PolledWorker<CentreClockLogger> {
  protected readonly loop: PollingLoop;
  protected logger: CentreClockLogger = { error() {} };

  constructor(ctx: { config: Pick<AppConfig, 'timeZone'>; db: Queryable }, pollMs = CENTRE_CLOCK_POLL_MS) {
    super();
    this.loop = new PollingLoop(async () => {
      try {
        await followCentreClock(ctx);
      } catch (error) {
        this.logger.error({ err: error }, "could not read the centre's time zone; the clock keeps the one it had");
      }
    }, pollMs);
  }
}
