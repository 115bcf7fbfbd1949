import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for Razorpay's REST API on loopback (ADR 053), checking each request as Razorpay does and
 * answering as it does:
 * - Basic auth `key_id:key_secret` on every call, else 401 with Razorpay's error body
 *   `{error: {code: 'BAD_REQUEST_ERROR', description, source, step, reason, metadata, field?}}`;
 * - POST /v1/payment_links: JSON; `amount` an integer of paise ≥ 100, `currency` INR, `reference_id`
 *   at most 40 characters and never used before (a repeat is a 400, as Razorpay answers), `customer`
 *   with a `contact`, `notes` at most 15 pairs of at most 256 characters, no field Razorpay does not take;
 *   answers the link entity (`plink_…`, `short_url`, `status: created`, `order_id`);
 * - GET /v1/payment_links/:id: the link with `payments[]` (`payment_id`, `amount`, `status`, `method`);
 * - GET /v1/payments?from&to&count&skip: the captured payments of that window, newest first.
 * A test "pays" a link (`pay`), which changes the link as Razorpay would but tells nobody; the events
 * Razorpay would post (`payment.captured`, `payment_link.paid`, …) are built by `eventsFor` and sent by
 * `send`, signed with the webhook secret over the exact bytes and carrying `X-Razorpay-Event-Id`: late,
 * twice, out of order or not at all, as the test chooses. Scripted faults: refuse, garbage, hang, reset.
 * With `hostedPages` it also serves each link's payment page, as rzp.io does (for the browser tests).
 */

/** The centre's Razorpay settings in the tests; the fake checks every request against them. */
export const RAZORPAY_TEST = {
  keyId: 'rzp_test_FakeCentreKey01',
  keySecret: 'fake-key-secret-9f2c1d7e',
  webhookSecret: 'fake-webhook-secret-41b7a0',
} as const;

/** Where Razorpay posts its events on the app (the contract's path). */
export const WEBHOOK_URL = '/api/v1/payments/razorpay/webhook';

export interface FakeRazorpayOptions {
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  /**
   * Serve each link's payment page on loopback, as rzp.io serves Razorpay's: `short_url` is then
   * `http://127.0.0.1:<port>/i/<id>` (else `https://rzp.io/i/…`, which nothing here serves). The page
   * shows the amount and a Pay button; tapped, the link is paid (`pay`) and its events are posted
   * (`eventsFor`, `send`) in Razorpay's order, before the page says the payment succeeded. Off by default.
   */
  hostedPages?: boolean;
}

export interface FakeLinkPayment {
  payment_id: string;
  amount: number;
  method: string;
  status: 'captured';
  created_at: number;
  plink_id: string;
}

export interface FakeLink {
  id: string;
  amount: number;
  amount_paid: number;
  currency: 'INR';
  reference_id: string;
  description: string;
  customer: { name?: string; contact?: string; email?: string };
  notes: Record<string, string>;
  status: 'created' | 'partially_paid' | 'paid' | 'expired' | 'cancelled';
  short_url: string;
  order_id: string;
  accept_partial: boolean;
  created_at: number;
  payments: FakeLinkPayment[];
}

/** One webhook event as Razorpay would post it: its id (the X-Razorpay-Event-Id header) and exact body. */
export interface FakeEvent {
  id: string;
  event: string;
  body: string;
}

export type FakeRazorpayFault =
  /** Razorpay's error body with this status and description. */
  | { kind: 'refuse'; status: number; description: string }
  /** An answer that is not Razorpay's (a proxy's error page). */
  | { kind: 'garbage' }
  | { kind: 'hang' }
  | { kind: 'reset' };

export interface FakeRazorpayRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

type Deliver = (body: string, headers: Record<string, string>) => Promise<number>;

export interface FakeRazorpay {
  /** What RAZORPAY_API_BASE_URL should be. */
  baseUrl: string;
  requests: FakeRazorpayRequest[];
  links: Map<string, FakeLink>;
  /** Faults for the next requests, one per request, in order. */
  faults: FakeRazorpayFault[];
  /** Where events go; the test points it at the app's webhook and answers the status code. */
  deliver: Deliver;
  /** A customer pays (all that is left of) the link, or `amount` of it; nobody is told. */
  pay(linkId: string, options?: { amount?: number; method?: string }): FakeLinkPayment;
  /** The events Razorpay posts for a payment: `payment.captured` and, when it settled the link, `payment_link.paid`. */
  eventsFor(payment: FakeLinkPayment): FakeEvent[];
  /** Any event for a link, e.g. `payment_link.expired`. */
  linkEvent(linkId: string, event: string): FakeEvent;
  /** Posts an event, signed (or with the signature given, or none), with its event id; answers the status. */
  send(event: FakeEvent, options?: { signature?: string | null; eventId?: string | null }): Promise<number>;
  /** The signature Razorpay puts on a body: hex HMAC-SHA256 keyed with the webhook secret. */
  sign(body: string): string;
  close(): Promise<void>;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LINK_FIELDS = new Set([
  'amount',
  'currency',
  'accept_partial',
  'first_min_partial_amount',
  'expire_by',
  'reference_id',
  'description',
  'customer',
  'notify',
  'reminder_enable',
  'notes',
  'callback_url',
  'callback_method',
  'options',
  'upi_link',
]);

/** Razorpay's ids: a prefix and 14 letters and digits. */
function razorpayId(prefix: string): string {
  const bytes = randomBytes(14);
  return `${prefix}_${[...bytes].map((byte) => ALPHABET[byte % ALPHABET.length]).join('')}`;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Razorpay's checks of a new Payment Link: the description of the first problem, and its field. */
function linkProblem(
  body: Record<string, unknown>,
  usedReferences: Set<string>,
): { description: string; field?: string } | undefined {
  for (const key of Object.keys(body)) {
    if (!LINK_FIELDS.has(key)) return { description: `${key} is/are not required and should not be sent`, field: key };
  }
  if (body.amount === undefined) return { description: 'The amount field is required.', field: 'amount' };
  if (typeof body.amount !== 'number' || !Number.isInteger(body.amount)) {
    return { description: 'The amount must be an integer.', field: 'amount' };
  }
  if (body.amount < 100) return { description: 'The amount must be atleast INR 1.00', field: 'amount' };
  if (body.currency !== 'INR') return { description: 'The currency must be INR.', field: 'currency' };
  const reference = body.reference_id;
  if (reference !== undefined) {
    if (typeof reference !== 'string' || reference.length > 40) {
      return { description: 'The reference id may not be greater than 40 characters.', field: 'reference_id' };
    }
    if (usedReferences.has(reference)) {
      return { description: `Payment Link with reference id ${reference} already exists`, field: 'reference_id' };
    }
  }
  if (body.description !== undefined && (typeof body.description !== 'string' || body.description.length > 2048)) {
    return { description: 'The description may not be greater than 2048 characters.', field: 'description' };
  }
  const customer = body.customer as Record<string, unknown> | undefined;
  if (customer !== undefined) {
    if (typeof customer !== 'object' || customer === null) return { description: 'customer must be an object' };
    if (customer.contact !== undefined && !/^\+?\d{8,15}$/.test(String(customer.contact))) {
      return { description: 'The contact format is invalid.', field: 'contact' };
    }
  }
  const notes = body.notes as Record<string, unknown> | undefined;
  if (notes !== undefined) {
    if (typeof notes !== 'object' || notes === null || Array.isArray(notes)) {
      return { description: 'The notes must be an array.', field: 'notes' };
    }
    if (Object.keys(notes).length > 15) return { description: 'Number of notes should not exceed 15', field: 'notes' };
    for (const value of Object.values(notes)) {
      if (typeof value !== 'string' || value.length > 256) {
        return { description: 'The notes value may not be greater than 256 characters.', field: 'notes' };
      }
    }
  }
  return undefined;
}

export async function startFakeRazorpay(options: FakeRazorpayOptions): Promise<FakeRazorpay> {
  const hanging = new Set<ServerResponse>();
  const usedReferences = new Set<string>();
  const authorization = `Basic ${Buffer.from(`${options.keyId}:${options.keySecret}`).toString('base64')}`;

  const answer = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
    response.end(JSON.stringify(body));
  };
  const refuse = (response: ServerResponse, status: number, description: string, field?: string) =>
    answer(response, status, {
      error: {
        code: status === 401 ? 'BAD_REQUEST_ERROR' : status >= 500 ? 'SERVER_ERROR' : 'BAD_REQUEST_ERROR',
        description,
        source: status === 401 ? 'NA' : 'business',
        step: status === 401 ? 'NA' : 'payment_initiation',
        reason: status === 401 ? 'NA' : 'input_validation_failed',
        metadata: {},
        ...(field ? { field } : {}),
      },
    });
  const linkEntity = (link: FakeLink) => ({
    accept_partial: link.accept_partial,
    amount: link.amount,
    amount_paid: link.amount_paid,
    callback_method: '',
    callback_url: '',
    cancelled_at: 0,
    created_at: link.created_at,
    currency: link.currency,
    customer: link.customer,
    description: link.description,
    expire_by: 0,
    expired_at: 0,
    first_min_partial_amount: 0,
    id: link.id,
    notes: link.notes,
    notify: { email: false, sms: false },
    order_id: link.order_id,
    payments: link.payments.length > 0 ? link.payments : null,
    reference_id: link.reference_id,
    reminder_enable: false,
    reminders: [],
    short_url: link.short_url,
    status: link.status,
    updated_at: nowSeconds(),
    user_id: '',
  });
  const paymentEntity = (payment: FakeLinkPayment) => {
    const link = fake.links.get(payment.plink_id) as FakeLink;
    return {
      id: payment.payment_id,
      entity: 'payment',
      amount: payment.amount,
      currency: 'INR',
      status: payment.status,
      order_id: link.order_id,
      invoice_id: null,
      international: false,
      method: payment.method,
      amount_refunded: 0,
      refund_status: null,
      captured: true,
      description: link.description,
      email: 'void@razorpay.com',
      contact: link.customer.contact ?? '',
      notes: link.notes,
      fee: Math.round(payment.amount * 0.02),
      tax: Math.round(payment.amount * 0.0036),
      created_at: payment.created_at,
    };
  };

  /** A link's payment page (GET /i/:id) and its Pay button (POST /i/:id/pay), with hostedPages only. */
  const hostedPage = async (request: IncomingMessage, response: ServerResponse, url: URL) => {
    const page = (status: number, body: string) => {
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Razorpay (fake)</title></head>
<body><main>${body}</main></body></html>`);
    };
    const [, id, action] = /^\/i\/([A-Za-z0-9_]+)(\/pay)?$/.exec(url.pathname) ?? [];
    const link = id === undefined ? undefined : fake.links.get(id);
    if (!link) return page(404, '<h1>Page not found</h1>');
    if (action && request.method === 'POST') {
      if (link.status !== 'created' && link.status !== 'partially_paid') {
        return answer(response, 409, { status: link.status });
      }
      const statuses: (number | string)[] = [];
      for (const sent of fake.eventsFor(fake.pay(link.id))) {
        // The payment stands whatever the app answers; an app out of reach is only a status here.
        statuses.push(await fake.send(sent).catch((error: unknown) => String(error)));
      }
      return answer(response, 200, { status: link.status, webhook: statuses });
    }
    if (action || request.method !== 'GET') return page(405, '<h1>Method not allowed</h1>');
    const rupees = (link.amount - link.amount_paid) / 100;
    const amount = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' }).format(rupees);
    if (link.status === 'paid') return page(200, '<h1>Payment successful</h1>');
    return page(
      200,
      `<h1>Pay ${amount}</h1><p id="for"></p>
<button type="button" id="pay">Pay ${amount}</button><p role="status" id="said"></p>
<script>
document.getElementById('for').textContent = ${JSON.stringify(link.description).replaceAll('<', '\\u003c')};
document.getElementById('pay').addEventListener('click', async () => {
  const paid = await fetch(location.pathname + '/pay', { method: 'POST' });
  document.getElementById('said').textContent = paid.ok ? 'Payment successful' : 'Payment failed';
});
</script>`,
    );
  };

  const handle = async (request: IncomingMessage, response: ServerResponse, raw: string) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    // The browser's visits to a payment page are not calls to the API: not kept in `requests`.
    if (options.hostedPages && !url.pathname.startsWith('/v1/')) return hostedPage(request, response, url);
    let body: unknown;
    try {
      body = raw === '' ? undefined : JSON.parse(raw);
    } catch {
      body = raw;
    }
    fake.requests.push({
      method: request.method ?? '',
      path: url.pathname + url.search,
      authorization: request.headers.authorization,
      body,
    });
    const fault = fake.faults.shift();
    if (fault?.kind === 'hang') return void hanging.add(response);
    if (fault?.kind === 'reset') return void request.socket.destroy();
    if (fault?.kind === 'garbage') {
      response.writeHead(502, { 'content-type': 'text/html' });
      return void response.end('<html><body>502 Bad Gateway</body></html>');
    }
    if (fault?.kind === 'refuse') return refuse(response, fault.status, fault.description);
    if (request.headers.authorization !== authorization) {
      return refuse(response, 401, 'The api key provided is invalid');
    }
    if (request.method === 'POST' && url.pathname === '/v1/payment_links') {
      if (!String(request.headers['content-type'] ?? '').startsWith('application/json')) {
        return refuse(response, 400, 'The requested URL was not found on the server.');
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        return refuse(response, 400, 'The request body is not valid JSON.');
      }
      const fields = body as Record<string, unknown>;
      const problem = linkProblem(fields, usedReferences);
      if (problem) return refuse(response, 400, problem.description, problem.field);
      const reference = (fields.reference_id as string | undefined) ?? '';
      if (reference) usedReferences.add(reference);
      const id = razorpayId('plink');
      const link: FakeLink = {
        id,
        amount: fields.amount as number,
        amount_paid: 0,
        currency: 'INR',
        reference_id: reference,
        description: (fields.description as string | undefined) ?? '',
        customer: (fields.customer as FakeLink['customer'] | undefined) ?? {},
        notes: (fields.notes as Record<string, string> | undefined) ?? {},
        status: 'created',
        short_url: options.hostedPages ? `${origin}/i/${id}` : `https://rzp.io/i/${id.slice(6, 15)}`,
        order_id: razorpayId('order'),
        accept_partial: fields.accept_partial === true,
        created_at: nowSeconds(),
        payments: [],
      };
      fake.links.set(id, link);
      return answer(response, 200, linkEntity(link));
    }
    const linkPath = /^\/v1\/payment_links\/([^/]+)$/.exec(url.pathname);
    if (request.method === 'GET' && linkPath) {
      const link = fake.links.get(decodeURIComponent(linkPath[1] ?? ''));
      if (!link) return refuse(response, 400, 'The id provided does not exist');
      return answer(response, 200, linkEntity(link));
    }
    if (request.method === 'GET' && url.pathname === '/v1/payments') {
      const from = Number(url.searchParams.get('from') ?? 0);
      const to = Number(url.searchParams.get('to') ?? Number.MAX_SAFE_INTEGER);
      const count = Math.min(100, Number(url.searchParams.get('count') ?? 10));
      const skip = Number(url.searchParams.get('skip') ?? 0);
      const items = [...fake.links.values()]
        .flatMap((link) => link.payments)
        .filter((payment) => payment.created_at >= from && payment.created_at <= to)
        .sort((a, b) => b.created_at - a.created_at)
        .slice(skip, skip + count)
        .map(paymentEntity);
      return answer(response, 200, { entity: 'collection', count: items.length, items });
    }
    return refuse(response, 400, 'The requested URL was not found on the server.');
  };

  const server: Server = createServer((request, response) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      raw += chunk;
    });
    request.on('end', () => void handle(request, response, raw));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  const sign = (body: string) => createHmac('sha256', options.webhookSecret).update(body).digest('hex');
  const event = (name: string, contains: Record<string, unknown>): FakeEvent => ({
    id: razorpayId('evt').slice(4),
    event: name,
    body: JSON.stringify({
      entity: 'event',
      account_id: 'acc_FakeCentre00001',
      event: name,
      contains: Object.keys(contains),
      payload: Object.fromEntries(Object.entries(contains).map(([key, entity]) => [key, { entity }])),
      created_at: nowSeconds(),
    }),
  });

  const fake: FakeRazorpay = {
    baseUrl: `${origin}/v1`,
    requests: [],
    links: new Map(),
    faults: [],
    deliver: async () => 0,
    pay: (linkId, payOptions = {}) => {
      const link = fake.links.get(linkId);
      if (!link) throw new Error(`no link ${linkId}`);
      const amount = payOptions.amount ?? link.amount - link.amount_paid;
      const payment: FakeLinkPayment = {
        payment_id: razorpayId('pay'),
        amount,
        method: payOptions.method ?? 'upi',
        status: 'captured',
        created_at: nowSeconds(),
        plink_id: link.id,
      };
      link.payments.push(payment);
      link.amount_paid += amount;
      link.status = link.amount_paid >= link.amount ? 'paid' : 'partially_paid';
      return payment;
    },
    eventsFor: (payment) => {
      const link = fake.links.get(payment.plink_id) as FakeLink;
      const captured = event('payment.captured', { payment: paymentEntity(payment) });
      const linkName = link.status === 'paid' ? 'payment_link.paid' : 'payment_link.partially_paid';
      const order = { id: link.order_id, entity: 'order', amount: link.amount, amount_paid: link.amount_paid };
      return [captured, event(linkName, { payment_link: linkEntity(link), order, payment: paymentEntity(payment) })];
    },
    linkEvent: (linkId, name) => {
      const link = fake.links.get(linkId) as FakeLink;
      if (name === 'payment_link.expired') link.status = 'expired';
      if (name === 'payment_link.cancelled') link.status = 'cancelled';
      return event(name, { payment_link: linkEntity(link) });
    },
    send: (sent, sendOptions = {}) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      const signature = sendOptions.signature === undefined ? sign(sent.body) : sendOptions.signature;
      if (signature !== null) headers['x-razorpay-signature'] = signature;
      const eventId = sendOptions.eventId === undefined ? sent.id : sendOptions.eventId;
      if (eventId !== null) headers['x-razorpay-event-id'] = eventId;
      return fake.deliver(sent.body, headers);
    },
    sign,
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
