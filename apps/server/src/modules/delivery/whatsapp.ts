import type { WhatsappConfig } from '../../config';

/**
 * One message for the Cloud API: an approved template (business-initiated: any time, within the daily
 * limit) or free text (only inside the 24 hours after the parent last wrote). `to` is E.164.
 */
export type WhatsappRequest =
  | {
      kind: 'template';
      to: string;
      template: string;
      language: string;
      /** The body's {{1}}, {{2}}, … in order. */
      parameters: readonly string[];
      /** Quick-reply buttons: each one's payload, in the template's button order. */
      buttonPayloads?: readonly string[];
    }
  | { kind: 'text'; to: string; body: string };

export interface WhatsappSender {
  /** Sends one message; throws a WhatsappError when it was not accepted. */
  send(request: WhatsappRequest): Promise<{ providerMessageId: string }>;
}

/** Cloud API error codes the sender acts on. */
export const WHATSAPP_ERRORS = {
  /** Message undeliverable (not on WhatsApp, old app version, …): try the next channel. */
  undeliverable: 131026,
  /** More than 24 hours since the parent last wrote: free text refused. */
  windowClosed: 131047,
  /** Cloud API throughput exceeded. */
  rateLimited: 130429,
  /** Too many messages to one phone in a short time. */
  pairRateLimited: 131056,
  /** Spam rate limit (too many messages from this number). */
  spamRateLimited: 131048,
  /** Temporary errors on Meta's side. */
  serviceUnavailable: 131000,
  temporarilyUnavailable: 133004,
} as const;

const RETRYABLE_CODES = new Set<number>([
  WHATSAPP_ERRORS.rateLimited,
  WHATSAPP_ERRORS.pairRateLimited,
  WHATSAPP_ERRORS.spamRateLimited,
  WHATSAPP_ERRORS.serviceUnavailable,
  WHATSAPP_ERRORS.temporarilyUnavailable,
  // Meta's "temporary" application and throttling codes.
  1,
  2,
  4,
  80007,
]);

/** The message was not accepted: `message` is the provider's reason, or that it could not be reached. */
export class WhatsappError extends Error {
  constructor(
    message: string,
    /** True when no answer came back at all (network failure, timeout), false when WhatsApp refused. */
    readonly isUnreachable = false,
    /** The Cloud API's error code, when it gave one. */
    readonly code: number | null = null,
    /** Sending the same request later may succeed (rate limits, 5xx, no answer). */
    readonly isRetryable = isUnreachable,
  ) {
    super(message);
    this.name = 'WhatsappError';
  }
}

export interface WhatsappSenderOptions {
  /** How long to wait for the Cloud API before giving up; 10 s unless a test wants less. */
  timeoutMs?: number;
}

const UNREACHABLE = 'WhatsApp could not be reached';
const MAX_REASON_LENGTH = 500;

/**
 * A template parameter as the Cloud API takes it: no new lines or tabs and never more than four spaces
 * in a row (it refuses the message otherwise), and never empty.
 */
export function templateParameter(value: string): string {
  const flat = value
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
  return flat === '' ? '-' : flat.slice(0, 1024);
}

/** The request body the Graph API takes for one message. */
export function graphMessageBody(request: WhatsappRequest): object {
  const common = { messaging_product: 'whatsapp', recipient_type: 'individual', to: request.to.replace(/\D/g, '') };
  if (request.kind === 'text') {
    return { ...common, type: 'text', text: { preview_url: false, body: request.body } };
  }
  const components: object[] = [
    {
      type: 'body',
      parameters: request.parameters.map((text) => ({ type: 'text', text: templateParameter(text) })),
    },
  ];
  (request.buttonPayloads ?? []).forEach((payload, index) => {
    components.push({
      type: 'button',
      sub_type: 'quick_reply',
      index: String(index),
      parameters: [{ type: 'payload', payload }],
    });
  });
  return {
    ...common,
    type: 'template',
    template: { name: request.template, language: { code: request.language }, components },
  };
}

/**
 * The WhatsApp Cloud API adapter: one POST per message to `/{phone-number-id}/messages` on the Graph
 * API. The access token travels only in the Authorization header and never appears in an error or a
 * log line.
 */
export function createWhatsappSender(config: WhatsappConfig, options: WhatsappSenderOptions = {}): WhatsappSender {
  const url = `${config.baseUrl.replace(/\/+$/, '')}/${encodeURIComponent(config.phoneNumberId)}/messages`;
  const timeoutMs = options.timeoutMs ?? 10_000;

  return {
    async send(request) {
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${config.accessToken}`,
            'content-type': 'application/json',
            accept: 'application/json',
          },
          body: JSON.stringify(graphMessageBody(request)),
          signal: AbortSignal.timeout(timeoutMs),
          // A redirect would carry the token somewhere we did not choose.
          redirect: 'error',
        });
      } catch {
        throw new WhatsappError(UNREACHABLE, true);
      }

      let answer: unknown;
      try {
        answer = await response.json();
      } catch {
        answer = undefined;
      }
      if (!response.ok) {
        const code = providerCode(answer);
        throw new WhatsappError(
          providerReason(answer, response.status, config.accessToken),
          false,
          code,
          response.status >= 500 || response.status === 429 || (code !== null && RETRYABLE_CODES.has(code)),
        );
      }
      const messages = (answer as { messages?: { id?: unknown }[] } | undefined)?.messages;
      const id = messages?.[0]?.id;
      if (typeof id !== 'string' || id === '') {
        // Accepted without an id: statuses could never find it; treat as not accepted, and do not retry
        // blindly (it may have been sent).
        throw new WhatsappError('WhatsApp answered without a message id', false, null, false);
      }
      return { providerMessageId: id };
    },
  };
}

function providerCode(answer: unknown): number | null {
  const code = (answer as { error?: { code?: unknown } } | undefined)?.error?.code;
  return typeof code === 'number' && Number.isInteger(code) ? code : null;
}

/** The Graph API answers `{error: {message, code}}`; anything else is described by its status. */
function providerReason(answer: unknown, status: number, accessToken: string): string {
  const message = (answer as { error?: { message?: unknown } } | undefined)?.error?.message;
  const reason =
    typeof message === 'string' && message.trim() !== '' ? message.trim() : `WhatsApp answered with HTTP ${status}`;
  // Some gateways echo the request back; the token must not leave through an error text.
  const safe = accessToken ? reason.split(accessToken).join('[token]') : reason;
  return safe.length > MAX_REASON_LENGTH ? `${safe.slice(0, MAX_REASON_LENGTH - 1)}…` : safe;
}
