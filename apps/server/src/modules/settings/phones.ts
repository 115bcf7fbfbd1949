import { phoneProblemText, readPhone } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';
import { type FieldWords, ValidationError } from '../../lib/errors';
import { DEFAULT_COUNTRY_CODE_SETTING } from './service';

/**
 * A phone as a request wrote it, in its stored form (E.164): the one reading of every phone typed
 * into the API (students, teachers, parent sign-in, WhatsApp), with the centre's default country code
 * for a number written without one. Imports read theirs with the same code (phoneSchema). A refusal is
 * a 422 on `field` saying what to fix; `whose` is "your" when a parent types their own number.
 */
export async function readWrittenPhone(
  db: Queryable,
  field: string,
  written: string | number,
  whose: 'the' | 'your' = 'the',
): Promise<string> {
  const reading = readPhone(written, await DEFAULT_COUNTRY_CODE_SETTING.read(db));
  if ('problem' in reading) {
    // The contract words the reason (the console words it the same way); its kind and numbers are params.
    const problem = reading.problem;
    const words: FieldWords = {
      code: 'validation.phone',
      params: {
        message: phoneProblemText(problem, whose),
        kind: problem.kind,
        ...('digits' in problem ? { digits: problem.digits } : {}),
        ...('countryCode' in problem ? { country_code: problem.countryCode } : {}),
        ...('found' in problem ? { found: problem.found } : {}),
      },
    };
    throw new ValidationError(field, words);
  }
  return reading.phone;
}
