import type { Theme } from '@mui/material';

/**
 * For an icon whose direction carries its meaning (send, a rising trend): mirrored when the page
 * reads right to left, as Material's bidirectionality guidance has it. Icons of things (a clock, a
 * calendar, a person) are never mirrored.
 */
export const FLIP_IN_RTL = {
  transform: (theme: Theme) => (theme.direction === 'rtl' ? 'scaleX(-1)' : undefined),
} as const;
