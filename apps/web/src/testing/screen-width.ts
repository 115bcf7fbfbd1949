import { vi } from 'vitest';

/**
 * Renders as on a screen this many pixels wide: jsdom has no `matchMedia`, so MUI's `useMediaQuery`
 * answers as on a wide screen unless a test says otherwise. Answers the width queries MUI's breakpoints
 * make (`min-width`, `max-width`); undo with `vi.unstubAllGlobals()`.
 */
export function renderAtWidth(width: number): void {
  vi.stubGlobal('matchMedia', (query: string) => {
    const min = /min-width:\s*([\d.]+)px/.exec(query);
    const max = /max-width:\s*([\d.]+)px/.exec(query);
    const matches = (!min || width >= Number(min[1])) && (!max || width <= Number(max[1]));
    return {
      matches,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    };
  });
}
