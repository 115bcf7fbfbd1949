import { z } from 'zod';
import { PARENT_LANGUAGES } from './common';

/** The formats of the accountant's fees exports (ADR 058). */
export const FEE_EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type FeeExportFormat = (typeof FEE_EXPORT_FORMATS)[number];

/**
 * What every fees export takes beside its report's own filters: the format, and the language its column
 * names, sheet and the product's own words are written in (ADR 066). Both optional, so a client that
 * names neither gets the CSV in English it always had.
 */
export const feeExportQuerySchema = z.object({
  format: z
    .enum(FEE_EXPORT_FORMATS, { error: 'must be csv or xlsx' })
    .default('csv')
    .describe('csv (UTF-8 with a byte order mark, CRLF lines) or xlsx (Excel); csv when left out'),
  lang: z
    .enum(PARENT_LANGUAGES, { error: `must be one of ${PARENT_LANGUAGES.join(', ')}` })
    .default('en')
    .describe(
      "the staff member's language for the column names, the sheet's name and the product's own words (modes, kinds, totals); en when left out. Numbers, ISO dates and what staff typed are the same in every language",
    ),
});
export type FeeExportQuery = z.input<typeof feeExportQuerySchema>;
