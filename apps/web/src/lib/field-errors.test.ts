import { describe, expect, it } from 'vitest';
import { splitFieldError } from './field-errors';

const FIELDS = ['parent_phone', 'full_name'] as const;

describe('splitFieldError', () => {
  it("puts a refusal on the field it names, in the server's words with a capital", () => {
    expect(splitFieldError('parent_phone: Enter the phone number with 10 digits', FIELDS)).toEqual({
      fields: { parent_phone: 'Enter the phone number with 10 digits' },
      form: null,
    });
    expect(splitFieldError('full_name: must not be empty', FIELDS)).toEqual({
      fields: { full_name: 'Must not be empty' },
      form: null,
    });
  });

  it('keeps above the form what names no field of the form, or no field at all', () => {
    expect(splitFieldError('subjects[0]: must be one of Mathematics', FIELDS)).toEqual({
      fields: {},
      form: 'subjects[0]: must be one of Mathematics',
    });
    expect(splitFieldError('email: must be a valid email address', FIELDS).form).toBe(
      'email: must be a valid email address',
    );
    expect(splitFieldError('Failed to create student', FIELDS)).toEqual({
      fields: {},
      form: 'Failed to create student',
    });
    expect(splitFieldError(null, FIELDS)).toEqual({ fields: {}, form: null });
  });
});
