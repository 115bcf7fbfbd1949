import { useSyncExternalStore } from 'react';

/**
 * Whether the server answered the console's last call. A call that gets no answer (no network, the
 * server stopped) or a gateway's 502, 503 or 504 (a proxy in front of a server that is down or
 * restarting) says it cannot be reached; any other answer, an error included, says it can. The shell
 * shows a banner from this; screens keep the data they had.
 */
let unreachable = false;
const listeners = new Set<() => void>();

/** Answers from a gateway whose server is not there. */
const GATEWAY_FAILURES = new Set([502, 503, 504]);

export function isGatewayFailure(status: number): boolean {
  return GATEWAY_FAILURES.has(status);
}

function set(value: boolean): void {
  if (unreachable === value) return;
  unreachable = value;
  for (const listener of listeners) listener();
}

/** A call got no answer from the server. */
export function noteUnreachable(): void {
  set(true);
}

/** The server answered a call. */
export function noteReached(): void {
  set(false);
}

export function isServerUnreachable(): boolean {
  return unreachable;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True while the console's last call to the server got no answer. */
export function useServerUnreachable(): boolean {
  return useSyncExternalStore(subscribe, isServerUnreachable, isServerUnreachable);
}
