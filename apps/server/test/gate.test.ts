import { describe, expect, it } from 'vitest';
import { Gate } from '../src/lib/gate';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('Gate', () => {
  it('lets `limit` in at once; the rest enter in the order they came as places are left', async () => {
    const gate = new Gate(2);
    const entered: number[] = [];
    const leaves = new Map<number, () => void>();
    for (const id of [1, 2, 3, 4, 5]) {
      void gate.enter().then((leave) => {
        entered.push(id);
        leaves.set(id, leave);
      });
    }
    await tick();
    expect(entered).toEqual([1, 2]);
    expect(gate.state).toEqual({ inside: 2, waiting: 3 });
    leaves.get(2)?.();
    leaves.get(2)?.(); // twice counts once
    await tick();
    expect(entered).toEqual([1, 2, 3]);
    expect(gate.state).toEqual({ inside: 2, waiting: 2 });
    leaves.get(1)?.();
    leaves.get(3)?.();
    await tick();
    expect(entered).toEqual([1, 2, 3, 4, 5]);
    leaves.get(4)?.();
    leaves.get(5)?.();
    expect(gate.state).toEqual({ inside: 0, waiting: 0 });
  });

  it('refuses a limit below one', () => {
    expect(() => new Gate(0)).toThrow(RangeError);
  });
});
