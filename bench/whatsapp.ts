// Part of `npm run bench`; alone: `npx tsx bench/whatsapp.ts` (after `npm run build`): send to 5,000 families, half with the parent app
// (a push device each) and half on WhatsApp only, against the fake push service and the fake Cloud API
// at its 80 messages a second. Figures: how long the send call takes (target under 1 s), and the time
// until every family is reached (push accepted, or WhatsApp delivered). Medians are not needed: one
// send of 5,000 is the measurement; run it again to see the spread.

import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openConfiguredDatabase } from '../apps/server/src/db/open';
import { APPROVED_TEMPLATES, startFakeCloudApi } from '../apps/server/test/helpers/fake-cloud-api';
import { ROOT } from '../scripts/kit/server';
import { startFakePushService } from './fake-push';
import type { WhatsappFigures } from './figures';
import { INITIAL_PASSWORD, resultsDir, startBenchServer } from './support';

const FAMILIES = Number(process.env.BENCH_FAMILIES ?? 5000);
const MESSAGES_PER_SECOND = 80;
const SECRET = 'bench-app-secret-for-the-fake';
const credentials = {
  accessToken: 'bench-access-token',
  phoneNumberId: '1098765432',
  businessAccountId: '2233445566',
  verifyToken: 'bench-verify-token-0123456789',
};

const push = await startFakePushService();
const cloud = await startFakeCloudApi({
  ...credentials,
  appSecret: SECRET,
  templates: APPROVED_TEMPLATES,
  autoStatuses: { delivered: 200 },
});
// The centre: the large centre's families (tools/seed-large.ts, one device each), then half of them
// without the app and opted in to WhatsApp, before the server starts on it.
const dataDir = mkdtempSync(path.join(tmpdir(), 'tuitiondesk-bench-whatsapp-'));
const seeded = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/tools/seed-large.ts')], {
  cwd: ROOT,
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    ADMIN_PASSWORD: INITIAL_PASSWORD,
    LOG_LEVEL: 'silent',
    SEED_STUDENTS: String(FAMILIES),
    SEED_TEACHERS: '1',
    SEED_DAYS: '1',
    SEED_PUSH_ENDPOINT: push.base,
    SEED_PUSH_P256DH: push.keys.p256dh,
    SEED_PUSH_AUTH: push.keys.auth,
  },
  encoding: 'utf8',
});
if (seeded.status !== 0) throw new Error(`seeding failed: ${seeded.stderr}`);
{
  const { db, release } = await openConfiguredDatabase({ kind: 'pglite', dataDir }, { max: 1 });
  await db.query(
    `WITH whatsapp AS (SELECT parent_phone FROM students WHERE id % 2 = 1)
     UPDATE students SET parent_whatsapp_opt_in = true WHERE parent_phone IN (SELECT parent_phone FROM whatsapp)`,
  );
  await db.query(
    'DELETE FROM push_subscriptions WHERE phone IN (SELECT parent_phone FROM students WHERE parent_whatsapp_opt_in)',
  );
  // Pushes are confirmed by nobody here, so no WhatsApp fallback may fire during the run.
  await db.query("UPDATE settings SET value = '60' WHERE key = 'whatsapp_fallback_minutes'");
  await db.close();
  release();
}

const server = await startBenchServer({
  dataDir,
  env: {
    WHATSAPP_ACCESS_TOKEN: credentials.accessToken,
    WHATSAPP_PHONE_NUMBER_ID: credentials.phoneNumberId,
    WHATSAPP_BUSINESS_ACCOUNT_ID: credentials.businessAccountId,
    WHATSAPP_APP_SECRET: SECRET,
    WHATSAPP_VERIFY_TOKEN: credentials.verifyToken,
    WHATSAPP_API_BASE_URL: cloud.baseUrl,
    WHATSAPP_DAILY_LIMIT: String(FAMILIES),
    WHATSAPP_MESSAGES_PER_SECOND: String(MESSAGES_PER_SECOND),
    PUSH_ALLOW_LOOPBACK_ENDPOINTS_FOR_TESTS: 'true',
  },
});
const webhookAnswers: number[] = [];
cloud.deliver = async (body) => {
  const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
  const response = await fetch(`${server.base}/api/v1/whatsapp/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
    body,
  });
  webhookAnswers.push(response.status);
  return response.status;
};

async function api(route: string, json?: unknown, token = server.token) {
  const response = await fetch(`${server.base}/api/v1${route}`, {
    method: json === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`);
  return response.json();
}

try {
  const started = performance.now();
  const result = await api('/messages/send-to-parents', {
    subject: 'Bench notice',
    message: 'Every family, on its channel.',
    recipients: 'all_parents',
  });
  const answeredMs = performance.now() - started;
  console.log(`send answered in ${Math.round(answeredMs)} ms: ${JSON.stringify(result)}`);
  const pushedAt = await push.waitFor(result.in_app_count, 600_000);
  const whatsappDeadline = Date.now() + 600_000;
  while (cloud.accepted.length < result.whatsapp_count && Date.now() < whatsappDeadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await cloud.settle();
  const lastWhatsapp = performance.now();
  const arrivals = cloud.arrivals.slice(-result.whatsapp_count);
  const spanSeconds = arrivals.length > 1 ? ((arrivals.at(-1) ?? 0) - (arrivals[0] ?? 0)) / 1000 : 0;
  const figures: WhatsappFigures = {
    families: FAMILIES,
    send_answered_ms: Math.round(answeredMs),
    in_app_count: result.in_app_count,
    whatsapp_count: result.whatsapp_count,
    all_pushes_accepted_s: Math.round((pushedAt - started) / 100) / 10,
    all_whatsapp_sent_s: Math.round((lastWhatsapp - started) / 100) / 10,
    whatsapp_rate_per_s: Math.round((result.whatsapp_count / Math.max(spanSeconds, 0.001)) * 10) / 10,
    messages_per_second_limit: MESSAGES_PER_SECOND,
    whatsapp_refused: cloud.refused.length,
    window_violations: cloud.windowViolations.length,
    webhook_not_200: webhookAnswers.filter((status) => status !== 200).length,
  };
  const json = `${JSON.stringify(figures, null, 2)}\n`;
  console.log(json);
  writeFileSync(path.join(resultsDir(), 'whatsapp.json'), json);
  // Over budget: the send call slower than 1 s, or any message refused or sent outside a window.
  if (
    figures.send_answered_ms > 1000 ||
    figures.whatsapp_refused + figures.window_violations + figures.webhook_not_200 > 0
  )
    process.exitCode = 1;
} finally {
  await cloud.settle();
  await server.stop();
  await cloud.close();
  await push.close();
  rmSync(dataDir, { recursive: true, force: true });
}
