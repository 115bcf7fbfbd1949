import { existsSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { BUILDS } from '../../scripts/build-freshness.mjs';
import { buildAll, choosePassword, ROOT, startServer } from '../../scripts/kit/server';

export const ADMIN_PASSWORD = 'e2e-initial-secret';
export const ADMIN_NEW_PASSWORD = 'e2e-console-secret';

/**
 * Builds the console and the server (E2E_SKIP_BUILD=true keeps builds already there), starts the built
 * server on a fresh database, and has the admin choose a password once.
 */
export default async function setup(project: TestProject) {
  const built = Object.values(BUILDS).every((build) => existsSync(path.join(ROOT, build.output)));
  if (process.env.E2E_SKIP_BUILD !== 'true' || !built) buildAll();
  const server = await startServer({ env: { ADMIN_PASSWORD }, timeoutMs: 60_000 });
  await choosePassword(server.base, 'admin', ADMIN_PASSWORD, ADMIN_NEW_PASSWORD);
  project.provide('baseUrl', server.base);
  return server.stop;
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}
