import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeRazorpay,
  RAZORPAY_TEST,
  startFakeRazorpay,
  WEBHOOK_URL,
} from '../apps/server/test/helpers/fake-razorpay';
import { choosePassword, type RunningServer, startServer } from '../scripts/kit/server';
import { expectAccessible, uniquePhone, useBrowser } from './support/browser';

/**
 * A parent pays online (ADR 053, 059): a server of its own with online payment on against the fake
 * Razorpay on loopback, whose payment page the app leaves for and whose signed webhook records the
 * payment. The parent signs in on a phone, sees what the family owes, taps Pay, pays on the (fake)
 * Razorpay page, comes back and finds nothing to pay and the online receipt. The Fees view with its
 * Pay button is axe-clean and fits a phone and a wide screen. The reconciler is set to a day, so only
 * the webhook can have recorded the payment.
 */
const { browser } = useBrowser();
const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 900 };
const INITIAL_PASSWORD = 'e2e-pay-online-initial';
const PASSWORD = 'Harbour-Tamarind-Violet-73';
let server: RunningServer;
let fake: FakeRazorpay;
let token: string;
/** The status the server answered each event Razorpay (the fake) posted to its webhook. */
const webhook: { event: string; status: number }[] = [];

/** Letters of its own for each try: a second try (after a timeout) must not find the first try's family. */
let tries = 0;
const tryTag = () =>
  `${String(process.pid).replace(/\d/g, (digit) => 'abcdefghij'[Number(digit)] ?? '')}${'xyzw'[tries++ % 4]}`;

async function call<T>(path: string, init: { method?: string; json?: unknown } = {}): Promise<T> {
  const response = await fetch(`${server.base}/api/v1${path}`, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

beforeAll(async () => {
  fake = await startFakeRazorpay({ ...RAZORPAY_TEST, hostedPages: true });
  server = await startServer({
    env: {
      ADMIN_PASSWORD: INITIAL_PASSWORD,
      RAZORPAY_KEY_ID: RAZORPAY_TEST.keyId,
      RAZORPAY_KEY_SECRET: RAZORPAY_TEST.keySecret,
      RAZORPAY_WEBHOOK_SECRET: RAZORPAY_TEST.webhookSecret,
      RAZORPAY_API_BASE_URL: fake.baseUrl,
      // A day: no round of the reconciler during the test, so a payment recorded came by the webhook.
      RAZORPAY_RECONCILE_SECONDS: '86400',
    },
    timeoutMs: 180_000,
  });
  token = await choosePassword(server.base, 'admin', INITIAL_PASSWORD, PASSWORD);
  // Razorpay posts its events to the webhook, signed over the exact bytes with the webhook secret.
  fake.deliver = async (body, headers) => {
    const status = (await fetch(`${server.base}${WEBHOOK_URL}`, { method: 'POST', headers, body })).status;
    webhook.push({ event: (JSON.parse(body) as { event: string }).event, status });
    return status;
  };
});

afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

/** A family with one child and a one-time fee of ₹2,450.50, raised by the charge run: it owes that. */
async function owingFamily(tag: string): Promise<{ phone: string; code: string; familyId: number }> {
  const child = await call<{ id: number }>('/students/', {
    json: {
      full_name: `Zoya Khan ${tag}`,
      class_name: '9',
      parent_name: `Imran Khan ${tag}`,
      parent_phone: uniquePhone(),
    },
  });
  const issued = await call<{ code: string; phone: string }>(`/students/${child.id}/parent-access`, { method: 'POST' });
  await call('/fees/plans', {
    json: { name: `Admission ${tag}`, kind: 'one_time', amount_paise: 245_050, student_ids: [child.id] },
  });
  await call('/fees/charges/run', { json: { month: new Date().toISOString().slice(0, 7) } });
  const family = await call<{ family_id: number; balance_paise: number }>(`/fees/students/${child.id}/family`);
  expect(family.balance_paise).toBe(245_050);
  return { phone: issued.phone, code: issued.code, familyId: family.family_id };
}

async function parentPage(viewport: {
  width: number;
  height: number;
}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser().newContext({ viewport, baseURL: server.base });
  const page = await context.newPage();
  page.setDefaultTimeout(45_000);
  return { context, page };
}

/** The Fees tab, once its balance is shown. */
async function openFees(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Fees' }).click();
  await page.getByRole('heading', { name: 'Fees', level: 1 }).waitFor();
  await page.locator('.fees-balance .balance-line').waitFor();
}

/** Nothing wider than the screen: no sideways scrolling. */
async function expectNoOverflow(page: Page): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBe(0);
}

describe('paying online from the parent app', () => {
  it('a parent taps Pay, pays on the Razorpay page, and comes back to nothing to pay and an online receipt', async () => {
    const tag = tryTag();
    const family = await owingFamily(tag);
    const linksBefore = fake.links.size;
    const webhookBefore = webhook.length;

    // The parent signs in on a phone with the phone number and the code from the centre.
    const phone = await parentPage(PHONE);
    const page = phone.page;
    await page.goto('/parent/');
    await page.getByRole('textbox', { name: 'Phone number' }).fill(family.phone);
    await page.getByRole('textbox', { name: 'Access code' }).fill(family.code);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('nav.tabs').waitFor();
    await openFees(page);
    const balance = page.locator('.fees-balance');
    expect(await balance.locator('.balance-line').textContent()).toBe('You owe ₹2,450.50');
    const pay = page.getByRole('button', { name: 'Pay ₹2,450.50 online' });
    await pay.waitFor();
    // No link is made by looking (ADR 059): only the tap asks Razorpay for one.
    expect(fake.links.size).toBe(linksBefore);
    await expectNoOverflow(page);
    await expectAccessible(page);

    // The same view on a wide screen (the same family, signed in by the QR's link).
    const wide = await parentPage(WIDE);
    await wide.page.goto(`/parent/#phone=${encodeURIComponent(family.phone)}&code=${family.code}`);
    await wide.page.locator('nav.tabs').waitFor();
    await openFees(wide.page);
    await wide.page.getByRole('button', { name: 'Pay ₹2,450.50 online' }).waitFor();
    await expectNoOverflow(wide.page);
    await expectAccessible(wide.page);

    // Pay: the app asks for the family's link and leaves for Razorpay's page, in this tab.
    await pay.click();
    await page.waitForURL((url) => url.pathname.startsWith('/i/plink_'));
    expect(fake.links.size).toBe(linksBefore + 1);
    const link = [...fake.links.values()].at(-1);
    expect(link).toMatchObject({ amount: 245_050, status: 'created', customer: { contact: family.phone } });
    expect(page.url()).toBe(link?.short_url);

    // On Razorpay's page the parent pays; Razorpay posts its signed events to the webhook.
    await page.getByRole('heading', { name: 'Pay ₹2,450.50' }).waitFor();
    await page.getByRole('button', { name: 'Pay ₹2,450.50' }).click();
    await page.getByRole('status').getByText('Payment successful').waitFor();
    expect(webhook.slice(webhookBefore)).toEqual([
      { event: 'payment.captured', status: 200 },
      { event: 'payment_link.paid', status: 200 },
    ]);

    // Back in the app: nothing to pay, and the receipt of the online payment, recorded once.
    await page.goBack();
    await page.waitForURL((url) => url.pathname.startsWith('/parent/'));
    await page.locator('nav.tabs').waitFor();
    await openFees(page);
    await balance.getByText('Nothing to pay').waitFor();
    expect(await page.getByRole('button', { name: /^Pay .* online$/ }).count()).toBe(0);
    const receipts = page.getByRole('list', { name: 'Receipts' }).getByRole('listitem');
    expect(await receipts.count()).toBe(1);
    const listed = await receipts.first().textContent();
    expect(listed).toContain('Online');
    expect(listed).toContain('₹2,450.50');
    const number = await receipts.first().locator('bdi').first().textContent();
    expect(number).toMatch(/^R\//);
    await expectNoOverflow(page);

    // The staff see the same: the family owes nothing, and one payment came in.
    const statement = await call<{ balance_paise: number; entries: { kind: string; credit_paise: number }[] }>(
      `/fees/families/${family.familyId}/statement`,
    );
    expect(statement.balance_paise).toBe(0);
    expect(statement.entries.filter((entry) => entry.kind === 'payment').map((entry) => entry.credit_paise)).toEqual([
      245_050,
    ]);

    await page.getByRole('button', { name: `Open receipt ${number}` }).click();
    await page.getByRole('heading', { name: `Receipt ${number}` }).waitFor();
    const receipt = page.locator('article.receipt');
    // Paid by: online, with Razorpay's payment id as the reference.
    const paidBy = receipt.locator('dt', { hasText: 'Paid by' }).locator('xpath=following-sibling::dd[1]');
    expect(await paidBy.textContent()).toBe(`Online ${link?.payments[0]?.payment_id}`);
    expect(await receipt.locator('.receipt-amount').textContent()).toBe('₹2,450.50');
    expect(await receipt.textContent()).toContain(`Imran Khan ${tag}`);
    await expectNoOverflow(page);

    // The wide screen, opened again, agrees.
    await wide.page.reload();
    await openFees(wide.page);
    await wide.page.locator('.fees-balance').getByText('Nothing to pay').waitFor();
    expect(await wide.page.getByRole('list', { name: 'Receipts' }).getByRole('listitem').count()).toBe(1);
    await expectNoOverflow(wide.page);

    await phone.context.close();
    await wide.context.close();
  });
});
