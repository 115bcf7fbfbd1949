import type { PushConfig } from '../../src/config';
import { type TestClient, testClient } from './client';
import { FakePushService } from './fake-push-service';
import { type TestAppOptions, testConfig, uniquePhone } from './test-app';

/**
 * Push settings for tests that talk to the fake push service: endpoints on loopback allowed, and a
 * worker that polls and retries at once. `overrides` shortens or lengthens the rest.
 */
export function loopbackPush(overrides: Partial<PushConfig> = {}): PushConfig {
  return { ...testConfig().push, allowLoopbackEndpointsForTests: true, pollMs: 20, retryBaseMs: 20, ...overrides };
}

export interface ParentWithToken {
  phone: string;
  token: string;
  studentId: number;
}

/**
 * A parent with one child and a parent app token. The access row is written directly (a code costs a
 * full hash, and these tests are about what happens after sign-in); the token is signed for it.
 */
export async function parentWithToken(api: TestClient, parentName: string): Promise<ParentWithToken> {
  const phone = uniquePhone();
  const student = await api.student({ parent_phone: phone, parent_name: parentName });
  await api.db.query("INSERT INTO parent_access (phone, code_hash, issued_by) VALUES ($1, 'not-a-real-hash', 'Test')", [
    phone,
  ]);
  const token = await api.ctx.tokens.signParent({ phone, tokenVersion: 0 });
  return { phone, token, studentId: student.id };
}

/** The fake push service, and an app (built with `options`) whose push worker runs. */
export async function startPushApp(options: TestAppOptions): Promise<{ api: TestClient; fake: FakePushService }> {
  const fake = await FakePushService.start();
  const api = await testClient(options);
  api.ctx.push.start();
  return { api, fake };
}

/** Stops what startPushApp started: the worker (letting a push in flight finish), the fake, the app. */
export async function stopPushApp(api: TestClient | undefined, fake: FakePushService | undefined): Promise<void> {
  await api?.ctx.push.stop(2000);
  await fake?.close();
  await api?.close();
}
