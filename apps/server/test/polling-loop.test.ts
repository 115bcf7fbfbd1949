import { describe, expect, it } from 'vitest';
import { PollingLoop } from '../src/lib/polling-loop';

/** A round that runs until released, counting how often it ran and whether two ever overlapped. */
function gatedRounds() {
  const state = { runs: 0, inFlight: 0, overlapped: false, release: () => {} };
  const work = async () => {
    state.runs += 1;
    state.inFlight += 1;
    if (state.inFlight > 1) state.overlapped = true;
    await new Promise<void>((resolve) => {
      state.release = resolve;
    });
    state.inFlight -= 1;
  };
  return { state, work };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('PollingLoop', () => {
  it('does nothing until started, then runs a round at once', async () => {
    const { state, work } = gatedRounds();
    const loop = new PollingLoop(work, 60_000);
    loop.wake();
    await tick();
    expect(state.runs).toBe(0);
    loop.start();
    await tick();
    expect(state.runs).toBe(1);
    state.release();
    await loop.stop(100);
  });

  it('runs one more round for any number of wakes during a round, never two at once', async () => {
    const { state, work } = gatedRounds();
    const loop = new PollingLoop(work, 60_000);
    loop.start();
    await tick();
    for (let i = 0; i < 5; i += 1) loop.wake();
    state.release();
    await tick();
    expect(state.runs).toBe(2);
    state.release();
    await tick();
    expect(state.runs).toBe(2);
    expect(state.overlapped).toBe(false);
    await loop.stop(100);
  });

  it('polls every pollMs after a round ends, and not after it is stopped', async () => {
    let runs = 0;
    const loop = new PollingLoop(async () => {
      runs += 1;
    }, 20);
    loop.start();
    await new Promise((resolve) => setTimeout(resolve, 110));
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(await loop.stop(100)).toBe('done');
    const stoppedAt = runs;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(runs).toBe(stoppedAt);
    expect(loop.isRunning).toBe(false);
  });

  it('waits for the round in flight at most the grace period when stopped', async () => {
    const { state, work } = gatedRounds();
    const loop = new PollingLoop(work, 60_000);
    loop.start();
    await tick();
    expect(await loop.stop(20)).toBe('timeout');
    let settled = false;
    const waiting = loop.settled().then(() => {
      settled = true;
    });
    await tick();
    expect(settled).toBe(false);
    state.release();
    await waiting;
    expect(settled).toBe(true);
    expect(state.runs).toBe(1);
  });
});
