import { parentSignInLink } from '@tuitiondesk/contract';
import { describe, expect, it } from 'vitest';
import { parseFragment } from './fragment';

describe('parseFragment', () => {
  it('reads the phone and code of the link staff hand out', () => {
    const link = parentSignInLink('https://centre.example/', '+919812345678', 'ABCD2345');
    expect(parseFragment(new URL(link).hash)).toEqual({ phone: '+919812345678', code: 'ABCD-2345' });
  });

  it('takes a + typed by hand in a link as a +, not a space', () => {
    expect(parseFragment('#phone=+919812345678&code=abcd-2345')).toEqual({
      phone: '+919812345678',
      code: 'abcd-2345',
    });
  });

  it('needs both phone and code for a sign-in', () => {
    expect(parseFragment('#phone=%2B919812345678')).toEqual({});
    expect(parseFragment('#code=ABCD-2345')).toEqual({});
    expect(parseFragment('')).toEqual({});
  });

  it('reads the message a notification opens, and nothing else', () => {
    expect(parseFragment('#message=42')).toEqual({ messageId: 42 });
    expect(parseFragment('#message=abc')).toEqual({});
    expect(parseFragment('#message=-3')).toEqual({});
  });
});
