/**
 * A token bucket per connection: a burst of twice the rate is let through, a steady flood is not.
 */
export class RateLimit {
  private tokens: number;
  private last: number;

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = perSecond * 2;
    this.last = this.now();
  }

  /** Spends one message's token; false when none is left. */
  take(): boolean {
    const now = this.now();
    this.tokens = Math.min(this.perSecond * 2, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
