// Measuring the server under load: autocannon runs, the server process's memory, and waiting for it
// to be idle again between runs.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { Figure } from '../figures';

/** Resident memory of a process, in MB (Linux). */
export function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}

/** Samples a process's memory every 100 ms; stop() answers the peak. */
export function sampleRss(pid: number): { stop: () => number } {
  let peak = rssMb(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, 100);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, rssMb(pid));
    },
  };
}

/** One autocannon run of `seconds`. */
export function cannon(seconds: number, options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ duration: seconds, ...options }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

export function figure(result: autocannon.Result): Figure {
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: result.requests.average,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** Waits until the server answers its health check quickly: requests left over from a run must not weigh on the next. */
export async function settle(base: string): Promise<void> {
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    const started = performance.now();
    const ok = await fetch(`${base}/api/v1/health`, { signal: AbortSignal.timeout(10_000) })
      .then((r) => r.ok)
      .catch(() => false);
    if (ok && performance.now() - started < 100) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the server did not settle within 5 minutes');
}
