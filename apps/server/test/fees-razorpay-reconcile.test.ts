import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';
import { RazorpayReconciler, reconcileOnce } from '../src/modules/payment-gateway';
import { waitFor } from './helpers/async';
import type { FakeEvent } from './helpers/fake-razorpay';
import { askForLink, balanceOf, countRows, owingFamily, razorpayConfig, razorpayTestBed } from './helpers/razorpay';

/**
 * The reconciler (ADR 053): Razorpay's API is the truth the webhook only announces. A payment whose
 * webhook never came is found and recorded once; the webhook that comes after records nothing. And the
 * settings: all three secrets or none.
 */
const bed = razorpayTestBed();

async function paidWithoutWebhook(paise: number) {
  const { api, fake } = bed();
  const family = await owingFamily(api, paise);
  const linkId = (await askForLink(api, family.familyId)).json().link_id as string;
  const payment = fake.pay(linkId, { method: 'card' });
  return { ...family, linkId, payment };
}

describe('the reconciler', () => {
  it('records a payment the webhook never told of, once, and a late webhook after it records nothing', async () => {
    const { api, fake } = bed();
    const missed = await paidWithoutWebhook(88_800);
    const untouched = await owingFamily(api, 10_000);
    expect(await balanceOf(api, missed.familyId)).toBe(88_800);

    const first = await reconcileOnce(api.db, razorpayConfig(fake));
    expect(first.recorded).toBe(1);
    expect(first.failed).toBe(0);
    expect(await balanceOf(api, missed.familyId)).toBe(0);
    expect(await balanceOf(api, untouched.familyId)).toBe(10_000);
    const [row] = await api.db.query<{ found_by: string; method: string }>(
      'SELECT found_by, method FROM gateway_payments WHERE payment_id = $1',
      [missed.payment.payment_id],
    );
    expect(row).toEqual({ found_by: 'reconciler', method: 'card' });
    const [link] = await api.db.query<{ status: string }>('SELECT status FROM payment_links WHERE link_id = $1', [
      missed.linkId,
    ]);
    expect(link?.status).toBe('paid');
    // The same Razorpay again: nothing new.
    expect((await reconcileOnce(api.db, razorpayConfig(fake))).recorded).toBe(0);

    // The webhook's events arrive at last, twice: kept, and nothing recorded.
    const entries = await countRows(api, 'ledger_entries');
    for (const event of [...fake.eventsFor(missed.payment), ...fake.eventsFor(missed.payment)] as FakeEvent[]) {
      expect(await fake.send(event, { eventId: `${event.id}-late-${Math.random()}` })).toBe(200);
    }
    expect(await countRows(api, 'ledger_entries')).toBe(entries);
    expect(await balanceOf(api, missed.familyId)).toBe(0);
    const outcomes = await api.db.query<{ outcome: string }>(
      "SELECT DISTINCT outcome FROM payment_gateway_events WHERE event_id LIKE '%-late-%'",
    );
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(['payment already recorded']);
  });

  it('records each payment once when the reconciler and the webhook meet at the same moment', async () => {
    const { api, fake } = bed();
    const missed = await paidWithoutWebhook(61_000);
    const events = fake.eventsFor(missed.payment);
    await Promise.all([
      reconcileOnce(api.db, razorpayConfig(fake)),
      ...events.map((event) => fake.send(event)),
      reconcileOnce(api.db, razorpayConfig(fake)),
    ]);
    expect(await countRows(api, 'gateway_payments WHERE payment_id = $1', [missed.payment.payment_id])).toBe(1);
    expect(await balanceOf(api, missed.familyId)).toBe(0);
  });

  it('asks again next round about a link Razorpay could not be asked about, and says so', async () => {
    const { api, fake } = bed();
    const missed = await paidWithoutWebhook(33_300);
    // Every open link is asked about once in a round: one fault per open link now.
    const open = await countRows(
      api,
      "payment_links WHERE status IN ('created', 'partially_paid') OR updated_at > now() - interval '2 days'",
    );
    for (let i = 0; i < open; i += 1) fake.faults.push({ kind: 'reset' });
    const failed = await reconcileOnce(api.db, razorpayConfig(fake));
    expect(failed.failed).toBeGreaterThanOrEqual(1);
    expect(await balanceOf(api, missed.familyId)).toBe(33_300);
    const next = await reconcileOnce(api.db, razorpayConfig(fake));
    expect(next.failed).toBe(0);
    expect(await balanceOf(api, missed.familyId)).toBe(0);
  });

  it('keeps asking about an open link, and stops two days after a link closed', async () => {
    const { api, fake } = bed();
    const open = await owingFamily(api, 15_000);
    const openLink = (await askForLink(api, open.familyId)).json().link_id as string;
    const closed = await paidWithoutWebhook(16_000);
    const asked = (linkId: string) => fake.requests.filter((r) => r.path === `/v1/payment_links/${linkId}`).length;
    await reconcileOnce(api.db, razorpayConfig(fake));
    expect([asked(openLink), asked(closed.linkId)]).toEqual([1, 1]);
    // Closed (paid) in the last two days: still asked about; closed three days ago: no longer.
    await reconcileOnce(api.db, razorpayConfig(fake));
    expect([asked(openLink), asked(closed.linkId)]).toEqual([2, 2]);
    await api.db.query("UPDATE payment_links SET updated_at = now() - interval '3 days' WHERE link_id = $1", [
      closed.linkId,
    ]);
    await reconcileOnce(api.db, razorpayConfig(fake));
    expect([asked(openLink), asked(closed.linkId)]).toEqual([3, 2]);
  });

  it('runs by itself every RAZORPAY_RECONCILE_SECONDS', async () => {
    const { api, fake } = bed();
    const reconciler = new RazorpayReconciler(api.db, razorpayConfig(fake, { reconcileSeconds: 1 }));
    reconciler.start(undefined);
    try {
      await reconciler.settled();
      const missed = await paidWithoutWebhook(12_345);
      await waitFor(
        'the reconciler to record the payment',
        async () => (await balanceOf(api, missed.familyId)) === 0,
        8_000,
      );
    } finally {
      await reconciler.stop();
    }
  });
});

describe('the Razorpay settings', () => {
  const all = {
    RAZORPAY_KEY_ID: 'rzp_live_AbC123',
    RAZORPAY_KEY_SECRET: 'secret-one',
    RAZORPAY_WEBHOOK_SECRET: 'secret-two',
  };

  it('turns online payment on with all three, off with none, and refuses to start with some', () => {
    expect(loadConfig({}).razorpay).toBeUndefined();
    expect(loadConfig({ ...all, RAZORPAY_RECONCILE_SECONDS: '5' }).razorpay).toEqual({
      baseUrl: 'https://api.razorpay.com/v1',
      keyId: 'rzp_live_AbC123',
      keySecret: 'secret-one',
      webhookSecret: 'secret-two',
      reconcileSeconds: 5,
      timeoutMs: 10_000,
    });
    expect(loadConfig(all).razorpay?.reconcileSeconds).toBe(900);
    const { RAZORPAY_WEBHOOK_SECRET: _left, ...two } = all;
    expect(() => loadConfig(two)).toThrow(ConfigError);
    expect(() => loadConfig(two)).toThrow(
      'Online payment needs RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET, RAZORPAY_WEBHOOK_SECRET set together (or none of them, for no online payment); missing: RAZORPAY_WEBHOOK_SECRET',
    );
    expect(() => loadConfig({ RAZORPAY_KEY_SECRET: 'x' })).toThrow(/missing: RAZORPAY_KEY_ID, RAZORPAY_WEBHOOK_SECRET/);
  });

  it('names a key id that is not one, a bad address and a bad interval', () => {
    expect(() => loadConfig({ ...all, RAZORPAY_KEY_ID: 'AbC123' })).toThrow(/RAZORPAY_KEY_ID: must be the Key Id/);
    expect(() => loadConfig({ ...all, RAZORPAY_API_BASE_URL: 'not a url' })).toThrow(/RAZORPAY_API_BASE_URL/);
    expect(() => loadConfig({ ...all, RAZORPAY_RECONCILE_SECONDS: '0' })).toThrow(/RAZORPAY_RECONCILE_SECONDS/);
  });

  it('never puts a secret in what the configuration error says', () => {
    const { RAZORPAY_KEY_ID: _id, ...secrets } = all;
    let message = '';
    try {
      loadConfig(secrets);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/missing: RAZORPAY_KEY_ID/);
    expect(message).not.toContain('secret-one');
    expect(message).not.toContain('secret-two');
  });
});
