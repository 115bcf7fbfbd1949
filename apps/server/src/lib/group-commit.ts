/**
 * Writes items in groups: what is added while a group is being written (or within `lingerMs` of the
 * first) goes in the next group, at most `maxItems` at a time, through one call of `write`. Each `add`
 * settles when its own group is written, or rejects with that group's error, so a caller waits for its
 * item exactly as it would for a write of its own. Made for a sender's outcomes: sixteen requests
 * answered within a few milliseconds cost one transaction instead of sixteen.
 */
export class GroupCommit<T> {
  private pending: { item: T; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private writing = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly options: { maxItems: number; lingerMs: number },
  ) {
    if (!Number.isInteger(options.maxItems) || options.maxItems < 1) throw new RangeError('maxItems must be ≥ 1');
  }

  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** Items added and not yet written. */
  get size(): number {
    return this.pending.length;
  }

  private schedule(): void {
    if (this.writing) return;
    if (this.pending.length >= this.options.maxItems) {
      clearTimeout(this.timer);
      this.timer = undefined;
      void this.flush();
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.options.lingerMs);
  }

  private async flush(): Promise<void> {
    if (this.writing || this.pending.length === 0) return;
    this.writing = true;
    const group = this.pending.splice(0, this.options.maxItems);
    try {
      await this.write(group.map((entry) => entry.item));
      for (const entry of group) entry.resolve();
    } catch (error) {
      for (const entry of group) entry.reject(error);
    } finally {
      this.writing = false;
      if (this.pending.length > 0) this.schedule();
    }
  }
}
