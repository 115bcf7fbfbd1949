import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { type Case, caseArbitrary } from './cases';
import { describeFailure, problemWith } from './invariants';
import type { Operation } from './openapi';
import type { ResponseSchemas } from './response-schemas';
import { type Sent, send } from './send';
import type { SchemaValues } from './values';
import type { FuzzWorld } from './world';

/** What the walk sent and what came back, for the closing report. */
export class Figures {
  requests = 0;
  readonly byClass: Record<string, number> = { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 };
  readonly byStatus = new Map<number, number>();
  readonly casesByOperation = new Map<string, number>();
  readonly successByOperation = new Map<string, number>();
  /** Per operation (`POST /api/v1/students/`): its requests by status, and the milliseconds it took. */
  readonly byOperation = new Map<string, { statuses: Map<number, number>; ms: number }>();

  record(operation: Operation, response: LightMyRequestResponse): void {
    this.requests += 1;
    const statusClass = `${Math.floor(response.statusCode / 100)}xx`;
    this.byClass[statusClass] = (this.byClass[statusClass] ?? 0) + 1;
    this.byStatus.set(response.statusCode, (this.byStatus.get(response.statusCode) ?? 0) + 1);
    const key = keyOf(operation);
    if (response.statusCode < 300) this.successByOperation.set(key, (this.successByOperation.get(key) ?? 0) + 1);
    const statuses = this.of(key).statuses;
    statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
  }

  /** The time one operation's walk took (added up if it is walked again). */
  timed(operation: Operation, ms: number): void {
    this.of(keyOf(operation)).ms += ms;
  }

  /** `200:12 401:30 …`, by status. */
  statuses(of: Map<number, number> = this.byStatus): string {
    return [...of.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}:${count}`)
      .join(' ');
  }

  /** One line per operation walked: requests, cases, seconds and the answers by status. */
  perOperation(): string[] {
    const width = Math.max(0, ...[...this.byOperation.keys()].map((key) => key.length));
    return [...this.byOperation.entries()].map(([key, { statuses, ms }]) => {
      const requests = [...statuses.values()].reduce((sum, n) => sum + n, 0);
      const cases = this.casesByOperation.get(key) ?? 0;
      return `${key.padEnd(width)}  requests=${requests} cases=${cases} seconds=${(ms / 1000).toFixed(1)}  ${this.statuses(statuses)}`;
    });
  }

  private of(key: string): { statuses: Map<number, number>; ms: number } {
    let entry = this.byOperation.get(key);
    if (!entry) {
      entry = { statuses: new Map(), ms: 0 };
      this.byOperation.set(key, entry);
    }
    return entry;
  }
}

export const keyOf = (operation: Operation) => `${operation.method} ${operation.path}`;

export interface FuzzOptions {
  seed: number;
  numRuns: number;
  /** fast-check stops starting cases after this long. */
  timeLimitMs: number;
}

/**
 * Fuzzes one operation: fast-check generates cases from the operation's schemas, each is sent as the
 * four callers in the case's order, and every answer is judged by the invariants. Before each case the
 * data is topped up; sign-in cases clear the sign-in throttle first in half of the cases, so the right
 * password is reached as well as the 429. A change-password case that succeeds hands its new password
 * and token to the identity that sent it, so later cases keep going deep. Answers how many whole cases ran.
 */
export async function fuzzOperation(
  world: FuzzWorld,
  values: SchemaValues,
  schemas: ResponseSchemas,
  figures: Figures,
  operation: Operation,
  options: FuzzOptions,
): Promise<number> {
  let cases = 0;
  const started = Date.now();
  const signIn = /\/login$/.test(operation.path);
  const runCase = async (c: Case) => {
    await world.ensureData();
    // Wrong guesses soon block every sign-in (429); half the cases start afresh so success is reached too.
    if (signIn && c.resetThrottle) await world.t.db.query('DELETE FROM login_throttle');
    for (const who of c.order) {
      // An earlier request of this case may have deleted the teacher or re-issued the parent's code.
      await world.refreshIdentities();
      const { sent, response } = await send(world, operation, c, who);
      figures.record(operation, response);
      const problem = problemWith(schemas, operation, sent, response);
      if (problem) throw new Error(describeFailure(operation, sent, response, problem));
      afterAnswer(world, operation, sent, response);
    }
    cases += 1;
  };
  // fast-check stops waiting for a case at the time limit, but the case runs on: it is awaited
  // here (so it cannot race the next operation's) and its failure, if any, still counts.
  let inFlight: Promise<unknown> = Promise.resolve();
  const details = await fc.check(
    fc.asyncProperty(caseArbitrary(operation, values), (c) => {
      const run = runCase(c);
      inFlight = run;
      return run;
    }),
    { seed: options.seed, numRuns: options.numRuns, plugins: [fc.interruptAfterTimeLimit(options.timeLimitMs)] },
  );
  try {
    // A property interrupted before its first case ended is "failed" without a counterexample: the
    // case is still running, and is judged below like the others.
    if (details.failed && details.counterexample !== null) {
      throw new Error(`${await fc.asyncDefaultReportMessage(details)}`, { cause: details.errorInstance });
    }
    await inFlight;
  } finally {
    // Counted whether the operation passed or not, so a failing run still reports what it did.
    figures.casesByOperation.set(keyOf(operation), cases);
    figures.timed(operation, Date.now() - started);
  }
  return cases;
}

/** Keeps the identities' passwords and tokens in step with what the cases did. */
function afterAnswer(world: FuzzWorld, operation: Operation, sent: Sent, response: LightMyRequestResponse): void {
  if (operation.method !== 'GET' && response.statusCode < 300) world.forgetPools();
  if (operation.path === '/api/v1/auth/change-password' && response.statusCode === 200) {
    const identity = sent.who === 'admin' ? world.admin : sent.who === 'teacher' ? world.teacher : undefined;
    if (!identity) throw new Error(`change-password answered 200 to ${sent.who}`);
    const sentBody = sent.resolvedBody as { new_password?: unknown } | undefined;
    if (typeof sentBody?.new_password !== 'string') throw new Error(`change-password answered 200 to ${sent.body}`);
    identity.password = sentBody.new_password;
    identity.token = response.json().access_token;
  }
}
