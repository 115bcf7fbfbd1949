import type { WhatsappConfig } from '../../config';

export interface WhatsappSender {
  /** Sends a text message to an E.164 phone; throws a WhatsappError when it was not accepted. */
  send(to: string, body: string): Promise<{ providerMessageId: string }>;
}

/** The message was not accepted: `message` is the provider's reason, or that it could not be reached. */
export class WhatsappError extends Error {
  constructor(
    message: string,
    /** True when no answer came back at all (network failure, timeout), false when WhatsApp refused. */
    readonly isUnreachable = false,
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
 * The WhatsApp Cloud API adapter: one POST per message to `/{phone-number-id}/messages` on the Graph
 * API. The access token travels only in the Authorization header and never appears in an error or a
 * log line.
 */
export function createWhatsappSender(config: WhatsappConfig, options: WhatsappSenderOptions = {}): WhatsappSender {
  const url = `${config.baseUrl.replace(/\/+$/, '')}/${encodeURIComponent(config.phoneNumberId)}/messages`;
  const timeoutMs = options.timeoutMs ?? 10_000;

  return {
    async send(to, body) {
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${config.accessToken}`,
            'content-type': 'application/json',
            accept: 'application/json',
          },
          body: JSON.stringify({
            messaging_product: 'whatsapp',
            recipient_type: 'individual',
            to: to.replace(/\D/g, ''),
            type: 'text',
            text: { preview_url: false, body },
          }),
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
      if (!response.ok) throw new WhatsappError(providerReason(answer, response.status, config.accessToken));
      const messages = (answer as { messages?: { id?: unknown }[] } | undefined)?.messages;
      const id = messages?.[0]?.id;
      return { providerMessageId: typeof id === 'string' ? id : '' };
    },
  };
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
