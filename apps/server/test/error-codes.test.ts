/**
 * Every error the server answers carries a stable `code` from the contract's catalogue, and `params`
 * when its text has placeholders, beside the English `detail` (ADR 036): the source is read so that no
 * error is made from an English sentence, and typical answers are checked through the API.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ERROR_CODES, formatErrorText } from '@tuitiondesk/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, testClient } from './helpers/client';

const SOURCE = new URL('../src/', import.meta.url);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

const HTTP_ERRORS =
  'BadRequest|Unauthorized|Forbidden|NotFound|Conflict|PayloadTooLarge|ServiceUnavailable|BadGateway|TooManyRequests|Validation|SecondFactorRequired';

describe('errors in the source', () => {
  const files = sourceFiles(SOURCE.pathname).map((file) => ({
    file: path.relative(SOURCE.pathname, file),
    text: readFileSync(file, 'utf8'),
  }));

  it('make every HTTP error from a code in the catalogue, never from a sentence', () => {
    const made: string[] = [];
    const wrong: string[] = [];
    for (const { file, text } of files) {
      const calls = text.matchAll(new RegExp(`new (?:${HTTP_ERRORS})Error\\(([^;]*?)\\)`, 'gs'));
      for (const [call, args = ''] of calls) {
        // ValidationError(field, code), TooManyRequestsError(seconds, code): the code is the second argument.
        const codeArg = /^new (Validation|TooManyRequests)Error/.test(call) ? args.split(',')[1] : args.split(',')[0];
        const argument = (codeArg ?? '').trim();
        if (argument === '') continue; // The class's own code (auth.not_authenticated, auth.forbidden).
        const literal = /^'([^']*)'$/.exec(argument);
        if (literal?.[1] !== undefined) {
          made.push(literal[1]);
          if (!(literal[1] in ERROR_CODES)) wrong.push(`${file}: ${call}`);
        } else if (/^[`"]/.test(argument)) wrong.push(`${file}: ${call}`);
      }
    }
    expect(wrong).toEqual([]);
    // The scan found the throw sites: it cannot pass by reading nothing.
    expect(made.length).toBeGreaterThan(100);
  });

  it('answer no error body by hand without its code', () => {
    const byHand = files.flatMap(({ file, text }) =>
      [...text.matchAll(/send\(\{\s*detail\b/g)].map((match) => `${file}@${match.index}`),
    );
    expect(byHand).toEqual([]);
  });
});

let api: TestClient;
beforeAll(async () => {
  api = await testClient();
});
afterAll(async () => {
  await api?.close();
});

/** The body of an error answer, checked to be the catalogue's text filled with its params. */
function problemOf(response: LightMyRequestResponse): {
  detail: string;
  code: string;
  params?: Record<string, unknown>;
} {
  const body = response.json() as { detail: string; code: keyof typeof ERROR_CODES; params?: Record<string, string> };
  expect(body.code in ERROR_CODES).toBe(true);
  expect(formatErrorText(ERROR_CODES[body.code], body.params ?? {})).toBe(body.detail);
  if (body.params !== undefined) expect(Object.keys(body.params).length).toBeGreaterThan(0);
  return body;
}

describe('error answers through the API', () => {
  it('names an unknown endpoint by its method and path', async () => {
    const response = await api.as('admin').get('/api/v1/no-such-thing?x=1');
    expect(response.statusCode).toBe(404);
    expect(problemOf(response)).toEqual({
      detail: 'No such endpoint: GET /api/v1/no-such-thing',
      code: 'route.not_found',
      params: { method: 'GET', path: '/api/v1/no-such-thing' },
    });
  });

  it('answers an unknown student with its id as a param', async () => {
    const response = await api.as('admin').post('/api/v1/students/987654/restore');
    expect(response.statusCode).toBe(404);
    expect(problemOf(response)).toEqual({
      detail: 'Student with id 987654 was not found',
      code: 'student.not_found_by_id',
      params: { id: 987654 },
    });
  });

  it('answers a conflict with the name it concerns', async () => {
    const student = await api.student({ first_name: 'Ishaan', last_name: 'Code' });
    const response = await api.as('admin').post(`/api/v1/students/${student.id}/restore`);
    expect(response.statusCode).toBe(409);
    expect(problemOf(response)).toEqual({
      detail: `${student.full_name} has not left, so cannot be restored`,
      code: 'student.not_left',
      params: { name: student.full_name },
    });
  });

  it("answers a field's failure as validation.<rule> with the field, from the contract and from a service", async () => {
    const fromContract = await api.as('admin').post('/api/v1/students', { first_name: 'Only' });
    expect(fromContract.statusCode).toBe(422);
    const contractProblem = problemOf(fromContract);
    expect(contractProblem.code).toMatch(/^validation\.[a-z_]+$/);
    expect(contractProblem.detail.startsWith(`${String(contractProblem.params?.field)}: `)).toBe(true);

    const fromService = await api
      .as('admin')
      .get('/api/v1/attendance/history?start_date=2026-03-10&end_date=2026-03-01');
    expect(fromService.statusCode).toBe(422);
    expect(problemOf(fromService)).toEqual({
      detail: 'start_date: must not be after end_date',
      code: 'validation.not_after',
      params: { field: 'start_date', other: 'end_date' },
    });
  });

  it('answers a body that is not JSON with a code and no params', async () => {
    const response = await api.as('admin').post('/api/v1/students', undefined, { json: '{"first_name": ' });
    expect(response.statusCode).toBe(400);
    expect(problemOf(response)).toEqual({ detail: 'body: is not valid JSON', code: 'request.invalid_json' });
  });

  it('answers too many sign-in attempts with the minutes to wait as a param', async () => {
    const remoteAddress = '10.201.0.7';
    let response: LightMyRequestResponse | undefined;
    for (let attempt = 0; attempt < 10 && response?.statusCode !== 429; attempt += 1) {
      response = await api
        .anonymous()
        .post('/api/v1/auth/login', undefined, { form: { username: 'admin', password: 'wrong' }, remoteAddress });
    }
    expect(response?.statusCode).toBe(429);
    const problem = problemOf(response as LightMyRequestResponse);
    expect(problem.code).toBe('auth.too_many_attempts');
    expect(problem.params).toEqual({ minutes: expect.any(Number) });
    expect(response?.headers['retry-after']).toMatch(/^\d+$/);
  });
});
