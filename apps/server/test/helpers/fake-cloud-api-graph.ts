import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * The fake Cloud API's Graph reads (GET), as the console's connection makes them (ADR 045), checked
 * as Meta checks them: the API version in the path, `Authorization: Bearer <token>` (an expired token
 * is refused with 190/463, an unknown one with 190), `appsecret_proof` = HMAC-SHA256 of the token keyed
 * with the app secret (100 "Invalid appsecret_proof"), the business account's id (100/33), and the
 * fields asked for. Lists answer `{data, paging}` with Meta's cursors.
 */

export interface FakePhoneNumber {
  id: string;
  display_phone_number: string;
  verified_name: string;
  quality_rating: string;
  messaging_limit_tier: string;
}

export interface FakeTemplate {
  name: string;
  language: string;
  status: 'APPROVED' | 'PENDING' | 'REJECTED' | 'PAUSED' | 'DISABLED';
  category: string;
  /** The body's text, with {{1}} … placeholders. */
  body: string;
}

export interface FakeGraph {
  businessAccountId: string;
  numbers: FakePhoneNumber[];
  templates: FakeTemplate[];
  /** Tokens Meta knows but that expired (190, subcode 463). */
  expiredTokens: Set<string>;
  /** Tokens without the WhatsApp permissions (200). */
  unpermittedTokens: Set<string>;
}

export interface GraphAnswer {
  status: number;
  body: object;
}

export function defaultGraph(businessAccountId: string, phoneNumberId: string): FakeGraph {
  const body3 = 'Dear parent, {{1}}: {{2}} {{3}}';
  return {
    businessAccountId,
    numbers: [
      {
        id: phoneNumberId,
        display_phone_number: '+91 80 4000 1111',
        verified_name: 'Bright Minds Tuition',
        quality_rating: 'GREEN',
        messaging_limit_tier: 'TIER_1K',
      },
      {
        id: '5550001',
        display_phone_number: '+1 555-000-1111',
        verified_name: 'Test Number',
        quality_rating: 'UNKNOWN',
        messaging_limit_tier: 'TIER_250',
      },
    ],
    templates: [
      { name: 'hello_world', language: 'en_US', status: 'APPROVED', category: 'UTILITY', body: 'Hello World' },
      ...['en', 'hi', 'ur'].map((language) => ({
        name: 'tuitiondesk_notice',
        language,
        status: 'APPROVED' as const,
        category: 'UTILITY',
        body: body3,
      })),
      { name: 'tuitiondesk_absence_alert', language: 'en', status: 'PENDING', category: 'UTILITY', body: body3 },
      { name: 'fees_due', language: 'en', status: 'REJECTED', category: 'MARKETING', body: 'Fees {{1}}' },
    ],
    expiredTokens: new Set(),
    unpermittedTokens: new Set(),
  };
}

const refusal = (status: number, code: number, message: string, subcode?: number): GraphAnswer => ({
  status,
  body: {
    error: {
      message,
      type: 'OAuthException',
      code,
      ...(subcode === undefined ? {} : { error_subcode: subcode }),
      fbtrace_id: 'AbCdEf123',
    },
  },
});

const pick = (row: object, fields: string[]) =>
  Object.fromEntries(Object.entries(row).filter(([key]) => key === 'id' || fields.includes(key)));

/** Meta's answer to a GET, or a refusal as Meta words it. */
export function graphRead(
  request: IncomingMessage,
  graph: FakeGraph,
  accessToken: string,
  appSecret: string,
): GraphAnswer {
  const url = new URL(request.url ?? '/', 'http://fake');
  const match = /^\/v21\.0\/(\d+)\/(phone_numbers|message_templates)$/.exec(url.pathname);
  if (!match) return refusal(400, 100, 'Unsupported get request. Please read the Graph API documentation');
  const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
  if (bearer && graph.expiredTokens.has(bearer)) {
    return refusal(
      401,
      190,
      'Error validating access token: Session has expired on Friday, 27-Nov-26 10:00:00 PST.',
      463,
    );
  }
  if (bearer && graph.unpermittedTokens.has(bearer)) {
    return refusal(403, 200, '(#200) Requires whatsapp_business_management permission to manage the object');
  }
  if (bearer !== accessToken) return refusal(401, 190, 'Invalid OAuth access token - Cannot parse access token');
  const proof = createHmac('sha256', appSecret).update(bearer).digest('hex');
  if (url.searchParams.get('appsecret_proof') !== proof) {
    return refusal(400, 100, 'Invalid appsecret_proof provided in the API argument');
  }
  const [, account, edge] = match;
  if (account !== graph.businessAccountId) {
    return refusal(
      400,
      100,
      `Unsupported get request. Object with ID '${account}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
      33,
    );
  }
  const fields = (url.searchParams.get('fields') ?? '').split(',').filter(Boolean);
  if (edge === 'phone_numbers') {
    return { status: 200, body: { data: graph.numbers.map((number) => pick(number, fields)), paging: {} } };
  }
  const limit = Math.min(Number(url.searchParams.get('limit') ?? 25) || 25, 100);
  const start = Number(Buffer.from(url.searchParams.get('after') ?? 'MA', 'base64').toString()) || 0;
  const rows = graph.templates.slice(start, start + limit).map((template, index) =>
    pick(
      {
        id: String(9000 + start + index),
        name: template.name,
        language: template.language,
        status: template.status,
        category: template.category,
        components: [{ type: 'BODY', text: template.body }],
      },
      fields,
    ),
  );
  const end = start + rows.length;
  const cursor = (n: number) => Buffer.from(String(n)).toString('base64');
  return {
    status: 200,
    body: {
      data: rows,
      paging: {
        cursors: { before: cursor(start), after: cursor(end) },
        ...(end < graph.templates.length
          ? { next: `https://graph.facebook.com/v21.0/${account}/message_templates` }
          : {}),
      },
    },
  };
}
