import { useEffect, useState } from 'react';
import { errorText, parentRequest } from './api';

/**
 * A family's action on the server (send, withdraw, switch): `busy` while it runs, and `error`, the
 * words of its failure (the server's, else `failed`'s), cleared when it runs again. `after` runs once
 * it has ended, either way.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const run = async (action: () => Promise<void>, failed: (caught: unknown) => string, after?: () => void) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (caught) {
      setError(errorText(caught, failed(caught)));
    } finally {
      setBusy(false);
      after?.();
    }
  };
  return { busy, error, setError, run };
}

/**
 * Reads `path` once, when the part of the app that asks first shows: `loaded` gets the answer and
 * `failed` the failure, neither once that part is gone.
 */
export function useReadOnce<T>(path: string, loaded: (value: T) => void, failed: () => void = () => undefined): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: read once, when first shown
  useEffect(() => {
    let live = true;
    parentRequest<T>(path)
      .then((value) => live && loaded(value))
      .catch(() => live && failed());
    return () => {
      live = false;
    };
  }, []);
}
