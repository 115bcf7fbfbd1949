import { type Theme, useTheme } from '@mui/material';
import { render } from '@testing-library/react';
import { ATTENDANCE_STATUSES } from '@tuitiondesk/contract';
import { describe, expect, it } from 'vitest';
import { STATUS_COLOURS, statusInk } from '../features/attendance/attendance-status';
import { PRIMARY_BLUE, STATUS_INK, STATUS_MAIN } from '../lib/attendance-colours';
import { Providers } from './providers';

/** Reads the console's own theme, as its screens see it. */
function ThemeProbe({ onTheme }: { onTheme: (theme: Theme) => void }) {
  onTheme(useTheme());
  return null;
}

function toHex(colour: string): string {
  const rgb = /^rgb\((\d+), (\d+), (\d+)\)$/.exec(colour);
  if (!rgb) return colour.toLowerCase();
  return `#${rgb
    .slice(1)
    .map((part) => Number(part).toString(16).padStart(2, '0'))
    .join('')}`;
}

describe('attendance colours without MUI', () => {
  it('are the console theme’s status colours', () => {
    let theme: Theme | undefined;
    render(
      <Providers>
        <ThemeProbe
          onTheme={(value) => {
            theme = value;
          }}
        />
      </Providers>,
    );
    if (!theme) throw new Error('no theme');
    const resolved = theme;
    for (const status of ATTENDANCE_STATUSES) {
      expect(STATUS_INK[status], status).toBe(toHex(statusInk(resolved, status)));
      expect(STATUS_MAIN[status], status).toBe(toHex(resolved.palette[STATUS_COLOURS[status]].main));
    }
    expect(PRIMARY_BLUE).toBe(resolved.palette.primary.main);
  });
});
