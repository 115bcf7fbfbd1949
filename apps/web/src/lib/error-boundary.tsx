import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  children: ReactNode;
  /** What stands in for the children once they failed; `retry` shows them anew. */
  fallback: (failure: { error: unknown; retry: () => void }) => ReactNode;
  /** A change clears the failure (the page's address: choosing another page shows it). */
  resetKey?: string;
  /** Before the children are shown anew, by Retry or by a change of `resetKey`. */
  onReset?: () => void;
  onError?: (error: unknown, info: ErrorInfo) => void;
}

interface State {
  failed: boolean;
  error: unknown;
}

/**
 * Catches what fails while showing its children (code that could not be fetched, an error while
 * rendering), so the rest of the screen stays, and shows `fallback` instead. React offers this only
 * as a class component.
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false, error: undefined };

  static getDerivedStateFromError(error: unknown): State {
    return { failed: true, error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    this.props.onError?.(error, info);
  }

  override componentDidUpdate(previous: Props): void {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) this.retry();
  }

  retry = (): void => {
    this.props.onReset?.();
    this.setState({ failed: false, error: undefined });
  };

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return this.props.fallback({ error: this.state.error, retry: this.retry });
  }
}
