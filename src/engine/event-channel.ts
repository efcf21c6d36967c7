/**
 * Events that arrive from callbacks (a server's progress reports) while the turn's generator
 * awaits something else: `until` yields each as it comes, then the awaited result.
 */
export class EventChannel<T> {
  private readonly queued: T[] = [];
  private wake: (() => void) | undefined;

  readonly push = (item: T): void => {
    this.queued.push(item);
    this.wake?.();
    this.wake = undefined;
  };

  /** Yields what is pushed while `work` runs (and what was pushed before), then returns its result. */
  async *until<R>(work: Promise<R>): AsyncGenerator<T, R> {
    let settled = false;
    const done = work.finally(() => {
      settled = true;
      this.wake?.();
      this.wake = undefined;
    });
    for (;;) {
      while (this.queued.length > 0) yield this.queued.shift() as T;
      if (settled) return await done;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }
}
