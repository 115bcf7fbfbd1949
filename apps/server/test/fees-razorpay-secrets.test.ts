import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { reconcileOnce } from '../src/modules/payment-gateway';
import { owingFamily, RAZORPAY_TEST, razorpayConfig, razorpayTestBed, WEBHOOK_URL } from './helpers/razorpay';
import { auth } from './helpers/test-app';

/**
 * Online payment's secrets (ADR 053) never reach a log line or an answer: the key secret, the webhook
 * secret and the Basic credentials made of them, whatever happens (a link made, Razorpay refusing or
 * unreachable, a webhook signed or not, the reconciler failing).
 */
const bed = razorpayTestBed();

const logged: string[] = [];
let app: FastifyInstance;
beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logged.push(String(chunk));
      done();
    },
  });
  app = await buildApp(bed().api.ctx, { logger: { level: 'trace', stream } });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
});

const SECRETS = [
  RAZORPAY_TEST.keySecret,
  RAZORPAY_TEST.webhookSecret,
  Buffer.from(`${RAZORPAY_TEST.keyId}:${RAZORPAY_TEST.keySecret}`).toString('base64'),
];

describe('the Razorpay secrets', () => {
  it('are in no log line and no answer, whatever Razorpay and the webhook do', async () => {
    const { api, fake } = bed();
    const headers = auth(await api.adminToken());
    const answers: string[] = [];
    const ask = async (familyId: number) => {
      const answer = await app.inject({
        method: 'POST',
        url: `/api/v1/fees/families/${familyId}/payment-link`,
        headers,
        payload: {},
      });
      answers.push(answer.body);
      return answer;
    };
    const made = await ask((await owingFamily(api, 20_000)).familyId);
    expect(made.statusCode).toBe(200);
    fake.faults.push({ kind: 'refuse', status: 401, description: 'The api key provided is invalid' });
    expect((await ask((await owingFamily(api, 20_000)).familyId)).statusCode).toBe(422);
    fake.faults.push({ kind: 'reset' });
    expect((await ask((await owingFamily(api, 20_000)).familyId)).statusCode).toBe(503);

    const [captured, linkPaid] = fake.eventsFor(fake.pay(made.json().link_id));
    for (const [event, signature] of [
      [captured, 'f'.repeat(64)],
      [captured, undefined],
      [linkPaid, undefined],
    ] as const) {
      const answer = await app.inject({
        method: 'POST',
        url: WEBHOOK_URL,
        payload: event?.body,
        headers: {
          'content-type': 'application/json',
          'x-razorpay-signature': signature ?? fake.sign(event?.body ?? ''),
          'x-razorpay-event-id': event?.id ?? '',
        },
      });
      answers.push(answer.body);
    }
    fake.faults.push({ kind: 'garbage' }, { kind: 'reset' }, { kind: 'refuse', status: 401, description: 'Bad key' });
    await reconcileOnce(api.db, razorpayConfig(fake), app.log);

    expect(logged.length).toBeGreaterThan(5);
    const everything = [...logged, ...answers].join('\n');
    for (const secret of SECRETS) expect(everything).not.toContain(secret);
    // Nor is any secret kept in the database (so none in a backup).
    const [row] = await api.db.query<{ found: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM payment_gateway_events WHERE strpos(raw_body, $1) > 0 OR strpos(raw_body, $2) > 0)
          OR EXISTS (SELECT 1 FROM settings WHERE strpos(value::text, $1) > 0 OR strpos(value::text, $2) > 0) AS found`,
      [RAZORPAY_TEST.keySecret, RAZORPAY_TEST.webhookSecret],
    );
    expect(row?.found).toBe(false);
  });
});
