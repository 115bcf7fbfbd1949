import { AppError, BadGatewayError, ServiceUnavailableError } from '../../lib/errors';
import { WHATSAPP_ERRORS, type WhatsappError } from './whatsapp';
import { refusalOf } from './whatsapp-graph';

/** Meta's code for a recipient not on a test number's list of allowed numbers. */
const NOT_ALLOWED_RECIPIENT = 131030;

/** A refused test message in an owner's words: what to fix, never a bare code. */
export function testSendFailure(error: WhatsappError): AppError {
  if (error.isUnreachable) return new ServiceUnavailableError('whatsapp.unreachable');
  if (error.code === NOT_ALLOWED_RECIPIENT) {
    return new AppError(422, { code: 'validation.whatsapp_test_not_allowed', params: { field: 'to' } });
  }
  if (error.code === WHATSAPP_ERRORS.undeliverable) {
    return new AppError(422, {
      code: 'whatsapp_setup.test_refused',
      params: { reason: 'the number is not on WhatsApp, or cannot receive messages from businesses' },
    });
  }
  // A token that expired since connecting, and the other account problems, are said as on connecting.
  if (error.code === 190 || error.code === 10 || error.code === 200) {
    return refusalOf(400, { code: error.code, subcode: null, message: error.message });
  }
  if (error.isRetryable) return new BadGatewayError('whatsapp_setup.test_refused', { reason: error.message });
  return new AppError(422, { code: 'whatsapp_setup.test_refused', params: { reason: error.message } });
}
