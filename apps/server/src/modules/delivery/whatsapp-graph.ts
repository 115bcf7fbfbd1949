import { createHmac } from 'node:crypto';
import { type ErrorWords, errorWords, type WhatsappTemplate } from '@tuitiondesk/contract';
import { AppError, BadGatewayError, ServiceUnavailableError } from '../../lib/errors';

/**
 * The Cloud API's reads the console's WhatsApp connection makes (ADR 045), on the Graph API with the
 * token in the Authorization header and `appsecret_proof` (HMAC-SHA256 of the token keyed with the app
 * secret), so that Meta itself says whether the app secret is the token's app's:
 *
 *   GET /{business-account-id}/phone_numbers      the account's numbers: is ours one of them, its
 *                                                  display number, quality rating and messaging tier
 *   GET /{business-account-id}/message_templates  the templates and their review status
 *
 * Meta's refusals become an owner's words on the field to fix (422); no answer is a 503 and an answer
 * that is not the Graph API's a 502. The token never appears in an error.
 */

export interface GraphCredentials {
  baseUrl: string;
  accessToken: string;
  appSecret: string;
  businessAccountId: string;
  timeoutMs: number;
}

export interface GraphPhoneNumber {
  id: string;
  display_phone_number: string | null;
  verified_name: string | null;
  quality_rating: string | null;
  messaging_limit_tier: string | null;
}

/** A template as listed, with how many body parameters ({{1}}, {{2}}, …) it takes. */
export interface GraphTemplate extends WhatsappTemplate {
  parameters: number;
}

const PHONE_FIELDS = 'id,display_phone_number,verified_name,quality_rating,messaging_limit_tier';
const TEMPLATE_FIELDS = 'name,language,status,category,components';
const MAX_TEMPLATE_PAGES = 10;

/** A 422 on `field` in the words of `code` (a `validation.whatsapp_*` text, which starts `{field}: `). */
function fieldError(field: string, words: ErrorWords): AppError {
  return new AppError(422, { ...words, params: { ...words.params, field } } as ErrorWords);
}

interface MetaError {
  code: number | null;
  subcode: number | null;
  message: string;
}

function metaErrorOf(answer: unknown): MetaError | undefined {
  const error = (answer as { error?: { code?: unknown; error_subcode?: unknown; message?: unknown } } | undefined)
    ?.error;
  if (!error || typeof error !== 'object') return undefined;
  return {
    code: typeof error.code === 'number' ? error.code : null,
    subcode: typeof error.error_subcode === 'number' ? error.error_subcode : null,
    message: typeof error.message === 'string' ? error.message : '',
  };
}

/** Meta's error codes (Graph API, "Handling errors") as what the owner must fix. */
export function refusalOf(status: number, error: MetaError | undefined): AppError {
  if (!error) return new BadGatewayError('whatsapp_setup.meta_failed', { status });
  const { code, subcode, message } = error;
  if (code === 190) {
    // 463: expired; 460: the password changed; 458/467: the session ended.
    return subcode === 463 || /expired/i.test(message)
      ? fieldError('access_token', errorWords('validation.whatsapp_token_expired', { field: 'access_token' }))
      : fieldError('access_token', errorWords('validation.whatsapp_token_invalid', { field: 'access_token' }));
  }
  if (code === 100 && /appsecret_proof/i.test(message)) {
    return fieldError('app_secret', errorWords('validation.whatsapp_app_secret_wrong', { field: 'app_secret' }));
  }
  if (code === 100 || code === 803) {
    return fieldError(
      'business_account_id',
      errorWords('validation.whatsapp_account_not_found', { field: 'business_account_id' }),
    );
  }
  if (code === 10 || code === 200 || code === 3 || (code !== null && code >= 200 && code <= 299)) {
    return fieldError('access_token', errorWords('validation.whatsapp_token_permission', { field: 'access_token' }));
  }
  return new BadGatewayError('whatsapp_setup.meta_failed', { status });
}

async function graphGet(credentials: GraphCredentials, path: string, query: Record<string, string>): Promise<unknown> {
  const url = new URL(`${credentials.baseUrl.replace(/\/+$/, '')}/${path}`);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  url.searchParams.set(
    'appsecret_proof',
    createHmac('sha256', credentials.appSecret).update(credentials.accessToken).digest('hex'),
  );
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { authorization: `Bearer ${credentials.accessToken}`, accept: 'application/json' },
      signal: AbortSignal.timeout(credentials.timeoutMs),
      redirect: 'error',
    });
  } catch {
    throw new ServiceUnavailableError('whatsapp_setup.unreachable');
  }
  let answer: unknown;
  try {
    answer = await response.json();
  } catch {
    throw new BadGatewayError('whatsapp_setup.meta_failed', { status: response.status });
  }
  if (!response.ok) {
    if (response.status >= 500) throw new BadGatewayError('whatsapp_setup.meta_failed', { status: response.status });
    throw refusalOf(response.status, metaErrorOf(answer));
  }
  return answer;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The business account's phone numbers; 422 when the token, the app secret or the account is wrong. */
export async function listPhoneNumbers(credentials: GraphCredentials): Promise<GraphPhoneNumber[]> {
  const answer = await graphGet(credentials, `${encodeURIComponent(credentials.businessAccountId)}/phone_numbers`, {
    fields: PHONE_FIELDS,
  });
  const data = (answer as { data?: unknown }).data;
  if (!Array.isArray(data)) throw new BadGatewayError('whatsapp_setup.meta_failed', { status: 200 });
  return data.map((row: Record<string, unknown>) => ({
    id: String(row.id ?? ''),
    display_phone_number: text(row.display_phone_number),
    verified_name: text(row.verified_name),
    quality_rating: text(row.quality_rating),
    messaging_limit_tier: text(row.messaging_limit_tier),
  }));
}

/** {{1}} … {{n}} in a template's body. */
function bodyParameters(components: unknown): number {
  if (!Array.isArray(components)) return 0;
  const body = components.find((c: { type?: unknown }) => String(c?.type ?? '').toUpperCase() === 'BODY') as
    | { text?: unknown }
    | undefined;
  const placeholders = typeof body?.text === 'string' ? body.text.match(/\{\{\s*[^}]+\s*\}\}/g) : null;
  return new Set(placeholders ?? []).size;
}

/** Every template of the business account (following Meta's pages), with its review status. */
export async function listTemplates(credentials: GraphCredentials): Promise<GraphTemplate[]> {
  const templates: GraphTemplate[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_TEMPLATE_PAGES; page += 1) {
    const answer = (await graphGet(
      credentials,
      `${encodeURIComponent(credentials.businessAccountId)}/message_templates`,
      { fields: TEMPLATE_FIELDS, limit: '100', ...(after ? { after } : {}) },
    )) as { data?: unknown; paging?: { next?: unknown; cursors?: { after?: unknown } } };
    if (!Array.isArray(answer.data)) throw new BadGatewayError('whatsapp_setup.meta_failed', { status: 200 });
    for (const row of answer.data as Record<string, unknown>[]) {
      templates.push({
        name: String(row.name ?? ''),
        language: String(row.language ?? ''),
        status: String(row.status ?? 'UNKNOWN'),
        category: text(row.category),
        parameters: bodyParameters(row.components),
      });
    }
    after = typeof answer.paging?.cursors?.after === 'string' ? answer.paging.cursors.after : undefined;
    if (!answer.paging?.next || !after) break;
  }
  return templates;
}
