import { existsSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { BUILDS } from '../../scripts/build-freshness.mjs';
import { buildAll, choosePassword, ROOT, type RunningServer, startServer } from '../../scripts/kit/server';

export const ADMIN_PASSWORD = 'e2e-initial-secret';
export const ADMIN_NEW_PASSWORD = 'e2e-console-secret';

/**
 * Builds the console and the server (E2E_SKIP_BUILD=true keeps builds already there), then starts one
 * built server on a fresh database for each worker (files run two at a time, each on its worker's
 * server, never two on one), and has the admin of each choose a password once.
 */
export default async function setup(project: TestProject) {
  const built = Object.values(BUILDS).every((build) => existsSync(path.join(ROOT, build.output)));
  if (process.env.E2E_SKIP_BUILD !== 'true' || !built) buildAll();
  // Vitest makes maxWorkers 1 when files do not run in parallel (E2E_WORKERS=1, or --no-file-parallelism).
  const workers = Math.max(1, project.config.maxWorkers || 1);
  const started = await Promise.allSettled(
    Array.from({ length: workers }, () => startServer({ env: { ADMIN_PASSWORD }, timeoutMs: 180_000 })),
  );
  const servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const stop = () => Promise.all(servers.map(stopAndTellErrors)).then(() => undefined);
  const failed = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  await Promise.all(servers.map((server) => choosePassword(server.base, 'admin', ADMIN_PASSWORD, ADMIN_NEW_PASSWORD)));
  project.provide(
    'baseUrls',
    servers.map((server: RunningServer) => server.base),
  );
  return stop;
}

/**
 * Stops a server and prints what it logged as an error (a 500's stack among them): a browser test sees
 * only "Internal server error", and the server's output is otherwise lost with its data directory.
 */
async function stopAndTellErrors(server: RunningServer) {
  await server.stop();
  const errors = server
    .output()
    .split('\n')
    .filter((line) => /"level":(50|60)/.test(line));
  if (errors.length > 0)
    console.error(`the server at ${server.base} logged ${errors.length} error(s):\n${errors.join('\n')}`);
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** One server for each worker, the first for the worker whose VITEST_POOL_ID is 1. */
    baseUrls: string[];
  }
}
