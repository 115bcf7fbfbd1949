import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/**
 * A component whose code is fetched when first shown (React.lazy) and fetched again after a failure.
 * React.lazy keeps the failed promise for good, so retrying means a new lazy component: `renew` makes
 * one if the last fetch failed. `Component` is stable and shows whichever lazy component is current.
 */
export interface RetryableLazy {
  Component: ComponentType;
  /** Fetches the code (the browser keeps it once fetched): what `Component` does when first shown. */
  load: () => Promise<unknown>;
  /** After a failed fetch, the next render of `Component` fetches the code again. */
  renew: () => void;
}

const renewers = new Set<() => void>();

export function retryableLazy(load: () => Promise<{ default: ComponentType }>): RetryableLazy {
  let failed = false;
  const create = (): LazyExoticComponent<ComponentType> =>
    lazy(() =>
      load().catch((error: unknown) => {
        failed = true;
        throw error;
      }),
    );
  let current = create();
  const renew = () => {
    if (!failed) return;
    failed = false;
    current = create();
  };
  renewers.add(renew);
  function Component() {
    const Current = current;
    return <Current />;
  }
  return { Component, load, renew };
}

/** Lets every component whose code failed to load try again when next shown. */
export function renewFailedLazies(): void {
  for (const renew of renewers) renew();
}
