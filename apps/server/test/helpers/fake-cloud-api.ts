import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultGraph, type FakeGraph, graphRead } from './fake-cloud-api-graph';

/**
 * A stand-in for the WhatsApp Business Cloud API on loopback, checking each request as Meta does and
 * answering as it does:
 * - POST /v21.0/{phone-number-id}/messages with `Authorization: Bearer <token>`, JSON,
 *   `messaging_product: whatsapp`, `to` in digits, and either a template it knows (name, language,
 *   body parameter count and format, quick-reply buttons) or free text, which it accepts but fails
 *   afterwards with 131047 when no 24-hour window is open for that phone (as the real one does);
 * - success: `{messaging_product, contacts: [{input, wa_id}], messages: [{id: 'wamid.…'}]}`;
 * - refusals: Meta's `{error: {message, type, code, error_subcode?, fbtrace_id}}` with its HTTP status.
 * It posts signed callbacks (X-Hub-Signature-256 over the exact body) through `deliver`, which a test
 * points at the app's webhook: statuses (automatically after each accepted message, or by hand: late,
 * twice, out of order, failed with real codes) and inbound messages (texts, button replies), which open
 * the phone's window. Scripted faults: refuse the next requests with a code, hang, answer late, or break
 * the socket. GET answers the Graph reads of the console's connection (fake-cloud-api-graph.ts).
 */

export interface ApprovedTemplate {
  /** Languages the template was approved in (its language codes). */
  languages: string[];
  /** Body parameters {{1}} … {{n}}. */
  parameters: number;
  /** Quick-reply buttons. */
  buttons: number;
}

export interface AcceptedMessage {
  wamid: string;
  to: string;
  type: 'template' | 'text';
  template?: string;
  language?: string;
  parameters?: string[];
  buttonPayloads?: string[];
  text?: string;
  at: Date;
}

export interface Refusal {
  status: number;
  code: number;
  message: string;
}

export interface FakeCloudApiOptions {
  accessToken: string;
  phoneNumberId: string;
  appSecret: string;
  templates: Record<string, ApprovedTemplate>;
  /** Statuses posted after each accepted message; `false` for none (tests post them by hand). */
  autoStatuses?: { delivered?: number; read?: number } | false;
  /** The WhatsApp Business Account the number belongs to (the Graph reads check it). */
  businessAccountId?: string;
}

export type Fault =
  /** Refuses with Meta's error; `times` requests, then no longer (every request when not given). */
  | { kind: 'refuse'; status: number; code: number; message: string; times?: number }
  /** An answer that is not the Graph API's (a proxy's error page). */
  | { kind: 'garbage' }
  | { kind: 'hang' }
  /** Answers, but only after `ms`. */
  | { kind: 'slow'; ms: number }
  | { kind: 'reset' };

export interface RecordedRequest {
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

type Deliver = (body: string, signature: string) => Promise<number>;

export interface FakeCloudApi {
  /** What the adapter's WHATSAPP_API_BASE_URL should be. */
  baseUrl: string;
  /** Every request, as it came. */
  requests: RecordedRequest[];
  accepted: AcceptedMessage[];
  refused: Refusal[];
  /** Free text sent when no window was open (must stay empty: the product never does it). */
  windowViolations: AcceptedMessage[];
  /** Every request's arrival time, to measure throughput. */
  arrivals: number[];
  /** Where callbacks go; the test sets it to post to the app's webhook and answer the status code. */
  deliver: Deliver;
  /** The webhook's answers to every callback posted. */
  callbackAnswers: number[];
  /** Faults for the next requests, taken in order (one per request). */
  faults: Fault[];
  /** Faults for one phone (digits), for every request to it. */
  faultFor: Map<string, Fault>;
  /** Phones (digits) whose accepted messages get no automatic statuses: the test posts them. */
  quiet: Set<string>;
  /** Posts a status for a wamid, now or as told. */
  postStatus(
    wamid: string,
    status: 'sent' | 'delivered' | 'read' | 'failed',
    options?: { at?: Date; error?: { code: number; title: string; message?: string } },
  ): Promise<number>;
  /** Several statuses in one callback, in the order given. */
  postStatuses(
    statuses: { wamid: string; status: 'sent' | 'delivered' | 'read' | 'failed'; at?: Date }[],
  ): Promise<number>;
  /** A parent writes (opens the phone's 24-hour window). */
  postText(phone: string, body: string, at?: Date): Promise<number>;
  /** A parent taps a quick-reply button on a template message. */
  postButton(phone: string, payload: string, text: string, contextWamid: string): Promise<number>;
  /** The business account's numbers and templates as the Graph reads answer them; tests change them. */
  graph: FakeGraph;
  /** Waits until every automatic callback has been delivered. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

const WINDOW_MS = 24 * 60 * 60 * 1000;

export async function startFakeCloudApi(options: FakeCloudApiOptions): Promise<FakeCloudApi> {
  const windows = new Map<string, number>();
  const pending = new Set<Promise<unknown>>();
  const hanging = new Set<ServerResponse>();
  const recipientOf = new Map<string, string>();
  let counter = 0;

  const signed = (body: string) => `sha256=${createHmac('sha256', options.appSecret).update(body).digest('hex')}`;
  const seconds = (date: Date) => String(Math.floor(date.getTime() / 1000));
  const envelope = (value: object) =>
    JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '2233445566',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550001111', phone_number_id: options.phoneNumberId },
                ...value,
              },
            },
          ],
        },
      ],
    });
  const post = async (value: object): Promise<number> => {
    const body = envelope(value);
    const status = await fake.deliver(body, signed(body));
    fake.callbackAnswers.push(status);
    return status;
  };
  const statusObject = (
    wamid: string,
    status: string,
    at: Date,
    error?: { code: number; title: string; message?: string },
  ) => ({
    id: wamid,
    status,
    timestamp: seconds(at),
    recipient_id: recipientOf.get(wamid) ?? '0',
    ...(status === 'sent' || status === 'delivered'
      ? {
          conversation: { id: `conv${wamid.slice(-6)}`, origin: { type: 'utility' } },
          pricing: { billable: true, pricing_model: 'PMP', category: 'utility' },
        }
      : {}),
    ...(error
      ? {
          errors: [
            {
              code: error.code,
              title: error.title,
              message: error.message ?? error.title,
              error_data: { details: error.title },
            },
          ],
        }
      : {}),
  });
  const later = (ms: number, work: () => Promise<unknown>) => {
    const job = new Promise((resolve) => setTimeout(resolve, ms)).then(work).catch(() => undefined);
    pending.add(job);
    void job.finally(() => pending.delete(job));
  };

  const refuse = (response: ServerResponse, refusal: Refusal) => {
    fake.refused.push(refusal);
    response.writeHead(refusal.status, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        error: {
          message: refusal.message,
          type: 'OAuthException',
          code: refusal.code,
          fbtrace_id: randomBytes(8).toString('hex'),
        },
      }),
    );
  };

  /** Meta's checks of a message request; undefined when it is acceptable. */
  const problem = (body: Record<string, unknown>): Refusal | undefined => {
    const invalid = (message: string, code = 100): Refusal => ({ status: 400, code, message });
    if (body.messaging_product !== 'whatsapp') return invalid('(#100) The parameter messaging_product is required.');
    if (typeof body.to !== 'string' || !/^\d{8,15}$/.test(body.to)) return invalid('(#100) Invalid parameter: to');
    if (body.type === 'text') {
      const text = (body.text as { body?: unknown } | undefined)?.body;
      if (typeof text !== 'string' || text.trim() === '')
        return invalid('(#100) The parameter text[body] is required.');
      if (text.length > 4096) return invalid('(#100) Param text[body] must be at most 4096 characters long.');
      return undefined;
    }
    if (body.type !== 'template') return invalid('(#100) Invalid parameter: type');
    const template = body.template as
      | {
          name?: unknown;
          language?: { code?: unknown };
          components?: {
            type?: string;
            sub_type?: string;
            index?: string;
            parameters?: { type?: string; text?: unknown; payload?: unknown }[];
          }[];
        }
      | undefined;
    const approved = typeof template?.name === 'string' ? options.templates[template.name] : undefined;
    if (!approved)
      return { status: 404, code: 132001, message: '(#132001) Template name does not exist in the translation' };
    if (typeof template?.language?.code !== 'string' || !approved.languages.includes(template.language.code)) {
      return { status: 404, code: 132001, message: '(#132001) Template name does not exist in the translation' };
    }
    const components = template.components ?? [];
    const bodyParameters = components.find((component) => component.type === 'body')?.parameters ?? [];
    if (bodyParameters.length !== approved.parameters) {
      return invalid('(#132000) Number of parameters does not match the expected number of params', 132000);
    }
    for (const parameter of bodyParameters) {
      if (parameter.type !== 'text' || typeof parameter.text !== 'string' || parameter.text === '') {
        return invalid('(#131008) Required parameter is missing', 131008);
      }
      if (/[\n\t]/.test(parameter.text) || / {5,}/.test(parameter.text)) {
        return invalid(
          '(#132018) Param text cannot have new-line/tab characters or more than 4 consecutive spaces',
          132018,
        );
      }
    }
    const buttons = components.filter((component) => component.type === 'button');
    if (buttons.length > approved.buttons) return invalid('(#131009) Parameter value is not valid: button', 131009);
    for (const button of buttons) {
      const index = Number(button.index);
      const payload = button.parameters?.[0];
      if (
        button.sub_type !== 'quick_reply' ||
        !(index >= 0 && index < approved.buttons) ||
        payload?.type !== 'payload'
      ) {
        return invalid('(#131009) Parameter value is not valid: button', 131009);
      }
      if (typeof payload.payload !== 'string' || payload.payload.length > 1000) {
        return invalid('(#131009) Parameter value is not valid: payload', 131009);
      }
    }
    return undefined;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse, raw: string) => {
    fake.arrivals.push(Date.now());
    if (request.method === 'GET') {
      fake.requests.push({
        path: request.url ?? '',
        authorization: request.headers.authorization,
        contentType: undefined,
        body: undefined,
      });
      const fault = fake.faults.shift();
      if (fault?.kind === 'hang') return void hanging.add(response);
      if (fault?.kind === 'reset') return void request.socket.destroy();
      if (fault?.kind === 'slow') await new Promise((resolve) => setTimeout(resolve, fault.ms));
      if (fault?.kind === 'garbage') {
        response.writeHead(502, { 'content-type': 'text/html' });
        return void response.end('<html><body>Bad gateway</body></html>');
      }
      if (fault?.kind === 'refuse') return refuse(response, fault);
      const answer = graphRead(request, fake.graph, options.accessToken, options.appSecret);
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      return void response.end(JSON.stringify(answer.body));
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      parsed = raw;
    }
    fake.requests.push({
      path: request.url ?? '',
      authorization: request.headers.authorization,
      contentType: request.headers['content-type'],
      body: parsed,
    });
    if (request.method !== 'POST' || request.url !== `/v21.0/${options.phoneNumberId}/messages`) {
      refuse(response, { status: 400, code: 100, message: 'Unsupported post request.' });
      return;
    }
    if (request.headers.authorization !== `Bearer ${options.accessToken}`) {
      refuse(response, { status: 401, code: 190, message: 'Invalid OAuth access token - Cannot parse access token' });
      return;
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      refuse(response, { status: 400, code: 100, message: '(#100) Request body is not JSON' });
      return;
    }
    const to = typeof body.to === 'string' ? body.to : '';
    const fault = fake.faultFor.get(to) ?? fake.faults.shift();
    if (fault?.kind === 'refuse' && fault.times !== undefined) {
      fault.times -= 1;
      if (fault.times <= 0) fake.faultFor.delete(to);
    }
    if (fault?.kind === 'hang') {
      hanging.add(response);
      return;
    }
    if (fault?.kind === 'reset') {
      request.socket.destroy();
      return;
    }
    if (fault?.kind === 'slow') await new Promise((resolve) => setTimeout(resolve, fault.ms));
    if (fault?.kind === 'garbage') {
      response.writeHead(500, { 'content-type': 'text/html' });
      response.end('<html><body>Bad gateway</body></html>');
      return;
    }
    if (fault?.kind === 'refuse') {
      refuse(response, { status: fault.status, code: fault.code, message: fault.message });
      return;
    }
    const refusal = problem(body);
    if (refusal) {
      refuse(response, refusal);
      return;
    }
    counter += 1;
    const wamid = `wamid.HBgM${to}${String(counter).padStart(6, '0')}${randomBytes(4).toString('hex').toUpperCase()}`;
    recipientOf.set(wamid, to);
    const template = body.template as
      | {
          name: string;
          language: { code: string };
          components?: { type: string; parameters?: { text?: string; payload?: string }[] }[];
        }
      | undefined;
    const message: AcceptedMessage = {
      wamid,
      to,
      type: body.type as 'template' | 'text',
      at: new Date(),
      ...(template
        ? {
            template: template.name,
            language: template.language.code,
            parameters: (template.components?.find((c) => c.type === 'body')?.parameters ?? []).map(
              (p) => p.text ?? '',
            ),
            buttonPayloads: (template.components ?? [])
              .filter((c) => c.type === 'button')
              .map((c) => c.parameters?.[0]?.payload ?? ''),
          }
        : { text: (body.text as { body: string }).body }),
    };
    fake.accepted.push(message);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        messaging_product: 'whatsapp',
        contacts: [{ input: to, wa_id: to }],
        messages: [{ id: wamid }],
      }),
    );
    const windowOpen = (windows.get(to) ?? 0) > Date.now();
    if (message.type === 'text' && !windowOpen) {
      fake.windowViolations.push(message);
      later(5, () =>
        fake.postStatus(wamid, 'failed', {
          error: {
            code: 131047,
            title: 'Re-engagement message',
            message: 'More than 24 hours have passed since the recipient last replied.',
          },
        }),
      );
      return;
    }
    if (options.autoStatuses !== false && !fake.quiet.has(to)) {
      const auto = options.autoStatuses ?? { delivered: 20, read: undefined };
      later(5, () => fake.postStatus(wamid, 'sent'));
      if (auto.delivered !== undefined) later(auto.delivered, () => fake.postStatus(wamid, 'delivered'));
      if (auto.read !== undefined) later(auto.read, () => fake.postStatus(wamid, 'read'));
    }
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

  const fake: FakeCloudApi = {
    baseUrl: `http://127.0.0.1:${port}/v21.0`,
    requests: [],
    accepted: [],
    refused: [],
    windowViolations: [],
    arrivals: [],
    deliver: async () => 0,
    callbackAnswers: [],
    faults: [],
    faultFor: new Map(),
    quiet: new Set(),
    graph: defaultGraph(options.businessAccountId ?? '2233445566', options.phoneNumberId),
    postStatus: (wamid, status, extra = {}) =>
      post({ statuses: [statusObject(wamid, status, extra.at ?? new Date(), extra.error)] }),
    postStatuses: (statuses) =>
      post({ statuses: statuses.map((s) => statusObject(s.wamid, s.status, s.at ?? new Date())) }),
    postText: (phone, body, at = new Date()) => {
      const from = phone.replace(/\D/g, '');
      windows.set(from, at.getTime() + WINDOW_MS);
      counter += 1;
      return post({
        contacts: [{ profile: { name: 'Parent' }, wa_id: from }],
        messages: [
          {
            from,
            id: `wamid.IN${counter}${randomBytes(4).toString('hex')}`,
            timestamp: seconds(at),
            type: 'text',
            text: { body },
          },
        ],
      });
    },
    postButton: (phone, payload, text, contextWamid) => {
      const from = phone.replace(/\D/g, '');
      windows.set(from, Date.now() + WINDOW_MS);
      counter += 1;
      return post({
        contacts: [{ profile: { name: 'Parent' }, wa_id: from }],
        messages: [
          {
            context: { from: '15550001111', id: contextWamid },
            from,
            id: `wamid.BTN${counter}${randomBytes(4).toString('hex')}`,
            timestamp: seconds(new Date()),
            type: 'button',
            button: { payload, text },
          },
        ],
      });
    },
    settle: async () => {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}

/** The templates a centre set up as docs/whatsapp.md says, as Meta would have approved them. */
export const APPROVED_TEMPLATES: Record<string, ApprovedTemplate> = {
  tuitiondesk_notice: { languages: ['en', 'hi', 'mr', 'ta', 'bn', 'ur'], parameters: 3, buttons: 0 },
  tuitiondesk_absence_alert: { languages: ['en', 'hi', 'mr', 'ta', 'bn', 'ur'], parameters: 3, buttons: 4 },
  tuitiondesk_late_alert: { languages: ['en', 'hi', 'mr', 'ta', 'bn', 'ur'], parameters: 3, buttons: 4 },
};
