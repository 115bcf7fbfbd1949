import { createHmac } from 'node:crypto';
import type { WhatsappConfig } from '../../src/config';
import type { Caller } from './client';

export const WHATSAPP_TEST = {
  accessToken: 'EAAtest-access-token-7f3a9c',
  phoneNumberId: '1098765432',
  businessAccountId: '2233445566',
  appSecret: 'test-app-secret-0b1c2d3e4f',
  verifyToken: 'verify-token-for-tests-5a6b7c',
} as const;

/** WhatsApp switched on against `baseUrl` (a fake Cloud API), with the test credentials. */
export function whatsappConfig(baseUrl: string, overrides: Partial<WhatsappConfig> = {}): WhatsappConfig {
  return {
    baseUrl,
    accessToken: WHATSAPP_TEST.accessToken,
    phoneNumberId: WHATSAPP_TEST.phoneNumberId,
    businessAccountId: WHATSAPP_TEST.businessAccountId,
    appSecret: WHATSAPP_TEST.appSecret,
    verifyToken: WHATSAPP_TEST.verifyToken,
    dailyLimit: 250,
    messagesPerSecond: 1000,
    ...overrides,
  };
}

/** `sha256=<hex>` of the exact bytes, as Meta signs a callback. */
export function metaSignature(body: string | Buffer, secret: string = WHATSAPP_TEST.appSecret): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** A callback of `value` (statuses and/or messages) the way the Cloud API wraps it. */
export function callbackOf(value: { statuses?: unknown[]; messages?: unknown[]; contacts?: unknown[] }): string {
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: WHATSAPP_TEST.businessAccountId,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550001111', phone_number_id: WHATSAPP_TEST.phoneNumberId },
              ...value,
            },
          },
        ],
      },
    ],
  });
}

/** Posts a callback to the webhook, signed unless `signature` says otherwise. */
export function postCallback(caller: Caller, body: string, signature: string | null = metaSignature(body)) {
  return caller.post('/api/v1/whatsapp/webhook', undefined, {
    raw: body,
    headers: {
      'content-type': 'application/json',
      ...(signature === null ? {} : { 'x-hub-signature-256': signature }),
    },
  });
}

const seconds = (date: Date) => String(Math.floor(date.getTime() / 1000));

export function statusOf(
  wamid: string,
  status: 'sent' | 'delivered' | 'read' | 'failed',
  phone: string,
  options: { at?: Date; error?: { code: number; title: string; message?: string } } = {},
) {
  return {
    id: wamid,
    status,
    timestamp: seconds(options.at ?? new Date()),
    recipient_id: phone.replace(/\D/g, ''),
    ...(options.error ? { errors: [{ ...options.error, error_data: { details: options.error.title } }] } : {}),
  };
}

let inboundCounter = 0;
export function textFrom(phone: string, body: string, at = new Date()) {
  inboundCounter += 1;
  return {
    from: phone.replace(/\D/g, ''),
    id: `wamid.inbound${Date.now()}${inboundCounter}`,
    timestamp: seconds(at),
    type: 'text',
    text: { body },
  };
}

export function buttonFrom(phone: string, payload: string, text: string, context: string, at = new Date()) {
  inboundCounter += 1;
  return {
    from: phone.replace(/\D/g, ''),
    id: `wamid.button${Date.now()}${inboundCounter}`,
    timestamp: seconds(at),
    type: 'button',
    button: { payload, text },
    context: { from: '15550001111', id: context },
  };
}
