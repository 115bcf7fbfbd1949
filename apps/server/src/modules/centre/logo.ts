import { CENTRE_LOGO_MAX_BYTES, type CentreLogoType } from '@tuitiondesk/contract';
import { ValidationError } from '../../lib/errors';

const startsWith = (bytes: Buffer, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((byte, index) => bytes[at + index] === byte);

/**
 * What the picture is, by its first bytes (its name and the type a browser claims are not looked at):
 * PNG's eight-byte signature, JPEG's SOI and a marker, WebP's RIFF…WEBP header with a VP8 chunk. An SVG,
 * a GIF, a script or a PDF is none of them.
 */
export function logoTypeOf(bytes: Buffer): CentreLogoType | undefined {
  if (
    startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) &&
    startsWith(bytes, [0x49, 0x48, 0x44, 0x52], 12)
  ) {
    return 'image/png';
  }
  if (startsWith(bytes, [0xff, 0xd8, 0xff]) && bytes.length > 4) return 'image/jpeg';
  if (
    startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) &&
    startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8) &&
    startsWith(bytes, [0x56, 0x50, 0x38], 12)
  ) {
    return 'image/webp';
  }
  return undefined;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The upload's picture, checked: a 422 on `image_base64` says what to fix (not base64, too large, not a picture). */
export function readLogoUpload(imageBase64: string): { bytes: Buffer; contentType: CentreLogoType } {
  const text = imageBase64.replace(/^data:[^,]*;base64,/, '').replace(/\s/g, '');
  if (text.length % 4 !== 0 || !BASE64.test(text)) {
    throw new ValidationError('image_base64', 'validation.invalid', { message: 'must be the picture, base64-encoded' });
  }
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length > CENTRE_LOGO_MAX_BYTES) {
    throw new ValidationError('image_base64', 'validation.logo_size', { size: Math.ceil(bytes.length / 1024) });
  }
  const contentType = logoTypeOf(bytes);
  if (!contentType) throw new ValidationError('image_base64', 'validation.logo_type');
  return { bytes, contentType };
}
