import { z } from 'zod';

export const healthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.enum(['ok', 'unavailable']),
  version: z.string(),
  /** Only when unavailable: what is wrong, as every other error says it. */
  detail: z.string().optional(),
});
