/**
 * The audit log (ADR 025), the walk: every write operation of the OpenAPI document that changes audited
 * data leaves rows naming who, from which address, through which way, and the values before and after
 * (the scenarios: helpers/audit-scenarios-*.ts). What the rows hold, sign-ins, secrets, append-only and
 * reading the log: audit.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { api, auditApp, auditRowsAfter, CONSOLE, lastAuditId, PARENT_APP, type Scenario } from './helpers/audit';
import { ACCOUNT_SCENARIOS } from './helpers/audit-scenarios-accounts';
import { CENTRE_SCENARIOS } from './helpers/audit-scenarios-centre';
import { CLASSES_SCENARIOS } from './helpers/audit-scenarios-classes';
import { FEE_PLAN_SCENARIOS } from './helpers/audit-scenarios-fee-plans';
import { FEE_REMINDER_SCENARIOS } from './helpers/audit-scenarios-fee-reminders';
import { FEE_REPLY_SCENARIOS } from './helpers/audit-scenarios-fee-replies';
import { FEES_LEDGER_SCENARIOS } from './helpers/audit-scenarios-fees-ledger';
import { GST_SCENARIOS } from './helpers/audit-scenarios-gst';
import { STAFF_SCENARIOS } from './helpers/audit-scenarios-staff';
import { freshAddress } from './helpers/client';

auditApp();

/**
 * A real, successful call for every write operation that changes audited data, with the rows it must
 * leave (helpers/audit-scenarios-*.ts).
 */
const SCENARIOS: Record<string, () => Promise<Scenario>> = {
  ...STAFF_SCENARIOS,
  ...CENTRE_SCENARIOS,
  ...CLASSES_SCENARIOS,
  ...ACCOUNT_SCENARIOS,
  ...FEE_PLAN_SCENARIOS,
  ...FEES_LEDGER_SCENARIOS,
  ...GST_SCENARIOS,
  ...FEE_REMINDER_SCENARIOS,
  ...FEE_REPLY_SCENARIOS,
};

/**
 * Writes that change nothing the audit log covers, each with why. A new write operation must be
 * walked above or listed here with its reason, or the walk fails.
 */
const EXEMPT: Record<string, string> = {
  // Delivery: a parent's device says it showed or opened a message (read_at, delivery status): churn
  // the log leaves out on purpose, one row per message and not per delivery step.
  'POST /api/v1/parent/messages/{id}/read': 'delivery churn',
  'POST /api/v1/parent/receipts': 'delivery churn',
  'POST /api/v1/parent/messages/shown': 'delivery churn',
  // A device's push subscription holds its keys and is not centre data.
  'POST /api/v1/parent/push/subscriptions': 'device push keys',
  'DELETE /api/v1/parent/push/subscriptions': 'device push keys',
  'POST /api/v1/staff/push/subscriptions': 'device push keys',
  'DELETE /api/v1/staff/push/subscriptions': 'device push keys',
  // Moves the caller's own "seen up to" mark in the activity feed (users.activities_viewed_at, left out).
  'POST /api/v1/activities/mark-viewed': 'read marker',
  // Meta's delivery statuses (churn) and parents' WhatsApp replies: signed with the app secret, which
  // needs WhatsApp configured against a fake Cloud API (whatsapp-webhook.test.ts). A STOP reply's
  // consent change is a students update, under the same triggers, with way 'api' and no account.
  'POST /api/v1/whatsapp/webhook': 'signed callback; covered by the students and messages triggers',
  // Connecting WhatsApp asks Meta first (a fake Cloud API in whatsapp-setup.test.ts, which checks the
  // settings rows these write under the settings trigger); the test template changes no centre data.
  'PUT /api/v1/settings/whatsapp': 'checked with Meta first; settings rows checked in whatsapp-setup.test.ts',
  'DELETE /api/v1/settings/whatsapp': 'removes the settings rows the connect wrote, under the same settings trigger',
  'POST /api/v1/settings/whatsapp/test': 'sends a test template; changes no centre data',
  // Online payment (ADR 053) asks Razorpay first (a fake Razorpay in fees-razorpay-links.test.ts, which checks the
  // payment_links row's audit); a webhook's payment is written under the ledger's and gateway_payments' triggers,
  // checked in fees-razorpay-webhook.test.ts. Without Razorpay set up, as here, both answer 409 and write nothing.
  'POST /api/v1/fees/families/{family_id}/payment-link':
    'asks Razorpay first; audited rows checked in fees-razorpay-links.test.ts',
  'POST /api/v1/payments/razorpay/webhook': 'signed by Razorpay; audited rows checked in fees-razorpay-webhook.test.ts',
  'POST /api/v1/parent/fees/pay-link':
    "a parent's tap asks Razorpay first, as the staff's link does; its audited row is checked in parent-fees.test.ts",
};

/** Destructive ones last: they take the other walks' records with them. */
const RUN_LAST = ['DELETE /api/v1/students/clear-all', 'DELETE /api/v1/teachers/clear-all'];

async function writeOperations(): Promise<string[]> {
  const document = (await api.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.keys(methods)
      .filter((method) => ['post', 'put', 'patch', 'delete'].includes(method))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
}

describe('every write operation of the OpenAPI document leaves audit rows', () => {
  it('each write operation is walked below or exempt with its reason, and nothing listed is gone', async () => {
    const writes = await writeOperations();
    expect(writes.length).toBeGreaterThan(40);
    expect(writes.filter((key) => !(key in SCENARIOS) && !(key in EXEMPT))).toEqual([]);
    expect([...Object.keys(SCENARIOS), ...Object.keys(EXEMPT)].filter((key) => !writes.includes(key))).toEqual([]);
  });

  const ordered = [
    ...Object.keys(SCENARIOS).filter((key) => !RUN_LAST.includes(key)),
    ...RUN_LAST.filter((key) => key in SCENARIOS),
  ];
  it.each(ordered)('%s', async (key) => {
    const scenario = await (SCENARIOS[key] as () => Promise<Scenario>)();
    const address = freshAddress();
    const from = await lastAuditId();
    const response = await scenario.send({
      headers: scenario.way === 'parent app' ? PARENT_APP : CONSOLE,
      remoteAddress: address,
    });
    await scenario.cleanUp?.();
    expect(response.statusCode, response.body.slice(0, 300)).toBeLessThan(300);
    const rows = await auditRowsAfter(from);
    for (const expected of scenario.rows) {
      const actor = expected.actor ?? scenario.actor;
      const match = {
        entity: expected.entity,
        action: expected.action,
        actor_id: actor.id,
        actor_name: actor.name,
        address,
        way: expected.way ?? scenario.way,
        ...(expected.record_id === undefined ? {} : { record_id: expected.record_id }),
        ...(expected.before === undefined ? {} : { before: expect.objectContaining(expected.before) }),
        ...(expected.after === undefined ? {} : { after: expect.objectContaining(expected.after) }),
      };
      expect(rows, `${expected.entity} ${expected.action}`).toContainEqual(expect.objectContaining(match));
    }
  });
});
