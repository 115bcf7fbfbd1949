/**
 * Lets at most `limit` holders in at once; the others wait their turn, first come first served. Each
 * `enter` answers the `leave` of that holder, which is safe to call more than once.
 */
export class Gate {
  private inside = 0;
  private readonly queue: (() => void)[] = [];

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('a gate lets at least one in');
  }

  async enter(): Promise<() => void> {
    if (this.inside < this.limit) this.inside += 1;
    else await new Promise<void>((resolve) => this.queue.push(resolve));
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const next = this.queue.shift();
      // The place passes straight to the next in line, so nobody overtakes the queue.
      if (next) next();
      else this.inside -= 1;
    };
  }

  /** Holders inside, and how many wait. */
  get state(): { inside: number; waiting: number } {
    return { inside: this.inside, waiting: this.queue.length };
  }
}
