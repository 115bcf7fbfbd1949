import { useEffect, useState } from 'react';

/**
 * A failed save's text split for a form: the server names the field a refusal is about
 * (`parent_phone: Enter the phone number with 10 digits…`), so that refusal shows on the field itself
 * (first letter capitalised) and anything else stays above the fields.
 */
export interface FormErrors<Field extends string> {
  fields: Partial<Record<Field, string>>;
  form: string | null;
}

export function splitFieldError<Field extends string>(
  error: string | null | undefined,
  fields: readonly Field[],
): FormErrors<Field> {
  if (!error) return { fields: {}, form: null };
  const match = /^([a-z_]+): (.+)$/s.exec(error);
  const field = match?.[1] as Field | undefined;
  if (!match || field === undefined || !fields.includes(field)) return { fields: {}, form: error };
  const message = match[2] as string;
  return {
    fields: { [field]: message.charAt(0).toUpperCase() + message.slice(1) } as Partial<Record<Field, string>>,
    form: null,
  };
}

/**
 * A form's refusals (see splitFieldError): each shows on its field until that field is edited, and each
 * new failed save (`error`) shows again. `textField` gives a text field its name, its value, a change
 * that drops its refusal, and its refusal or else its hint.
 */
export function useFieldErrors<Field extends string>(error: string | null | undefined, fields: readonly Field[]) {
  const [errors, setErrors] = useState(() => splitFieldError<Field>(error, fields));
  useEffect(() => setErrors(splitFieldError<Field>(error, fields)), [error, fields]);
  const edited = (name: Field) =>
    setErrors(({ fields: shown, form }) => {
      const { [name]: _, ...others } = shown;
      return { fields: others as Partial<Record<Field, string>>, form };
    });
  const textField = (name: Field, value: string, change: (value: string) => void, hint?: string) => ({
    name,
    value,
    onChange: (event: { target: { value: string } }) => {
      change(event.target.value);
      edited(name);
    },
    error: errors.fields[name] !== undefined,
    helperText: errors.fields[name] ?? hint,
  });
  return { errors, edited, textField };
}
