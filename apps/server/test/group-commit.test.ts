import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../src/lib/group-commit';

/** A write that waits until released, keeping each group it was given and whether two overlapped. */
function gatedWrites(fail?: (items: number[]) => boolean) {
  const state = { groups: [] as number[][], inFlight: 0, overlapped: false, releases: [] as (() => void)[] };
  const write = async (items: number[]) => {
    state.groups.push(items);
    state.inFlight += 1;
    if (state.inFlight > 1) state.overlapped = true;
    await new Promise<void>((resolve) => state.releases.push(resolve));
    state.inFlight -= 1;
    if (fail?.(items)) throw new Error(`group ${items.join(',')} failed`);
  };
  return { state, write };
}

const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

describe('GroupCommit', () => {
  it('writes what is added at once as one group, and each add settles when its group is written', async () => {
    const { state, write } = gatedWrites();
    const group = new GroupCommit(write, { maxItems: 10, lingerMs: 1 });
    const settled: number[] = [];
    const adds = [1, 2, 3].map((item) => group.add(item).then(() => settled.push(item)));
    await tick();
    expect(state.groups).toEqual([[1, 2, 3]]);
    expect(settled).toEqual([]);
    state.releases.shift()?.();
    await Promise.all(adds);
    expect(settled).toEqual([1, 2, 3]);
    expect(group.size).toBe(0);
  });

  it('gathers what is added during a write into the next group, never two writes at once', async () => {
    const { state, write } = gatedWrites();
    const group = new GroupCommit(write, { maxItems: 100, lingerMs: 1 });
    const first = group.add(1);
    await tick();
    const later = Promise.all([2, 3, 4, 5].map((item) => group.add(item)));
    await tick();
    expect(state.groups).toEqual([[1]]);
    state.releases.shift()?.();
    await first;
    await tick();
    expect(state.groups).toEqual([[1], [2, 3, 4, 5]]);
    state.releases.shift()?.();
    await later;
    expect(state.overlapped).toBe(false);
  });

  it('writes at most maxItems at a time, and a full group goes without waiting out the linger', async () => {
    const { state, write } = gatedWrites();
    const group = new GroupCommit(write, { maxItems: 2, lingerMs: 60_000 });
    const adds = Promise.all([1, 2, 3, 4, 5].map((item) => group.add(item)));
    await tick();
    expect(state.groups).toEqual([[1, 2]]);
    state.releases.shift()?.();
    await tick();
    expect(state.groups).toEqual([
      [1, 2],
      [3, 4],
    ]);
    state.releases.shift()?.();
    await tick();
    // The fifth waits for the linger (a minute here) or for more to fill its group.
    expect(state.groups).toHaveLength(2);
    const sixth = group.add(6);
    await tick();
    expect(state.groups).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
    state.releases.shift()?.();
    await Promise.all([adds, sixth]);
  });

  it('rejects every add of a failed group with its error, and goes on with the next group', async () => {
    const { state, write } = gatedWrites((items) => items.includes(2));
    const group = new GroupCommit(write, { maxItems: 2, lingerMs: 1 });
    const outcomes = [1, 2, 3].map((item) =>
      group.add(item).then(
        () => 'written',
        (error: Error) => error.message,
      ),
    );
    await tick();
    state.releases.shift()?.();
    await tick();
    state.releases.shift()?.();
    expect(await Promise.all(outcomes)).toEqual(['group 1,2 failed', 'group 1,2 failed', 'written']);
  });

  it('refuses a group size below one', () => {
    expect(() => new GroupCommit(async () => {}, { maxItems: 0, lingerMs: 1 })).toThrow(RangeError);
  });
});
