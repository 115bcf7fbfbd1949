import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { detailOf } from './test-app';

/**
 * Checks a refusal: its status, and its detail — the exact words when `detail` is a string, words
 * the pattern matches when it is a RegExp.
 */
export function expectRefusal(response: LightMyRequestResponse, status: number, detail: string | RegExp): void {
  expect(response.statusCode).toBe(status);
  if (typeof detail === 'string') expect(detailOf(response)).toBe(detail);
  else expect(detailOf(response)).toMatch(detail);
}
