import { describe, expect, it } from 'vitest';
import { base64UrlToBytes, pushSupported } from './push';

describe('the VAPID key', () => {
  it('turns base64url (no padding) into the bytes subscribe() wants', () => {
    const bytes = new Uint8Array(65).map((_, index) => (index * 37 + 4) % 256);
    const base64url = btoa(String.fromCharCode(...bytes))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
    expect(base64UrlToBytes(base64url)).toEqual(bytes);
    expect(base64UrlToBytes(base64url)).toBeInstanceOf(Uint8Array);
  });
});

describe('support', () => {
  it('is off where the browser has no service worker or push (as in jsdom)', () => {
    expect(pushSupported()).toBe(false);
  });
});
