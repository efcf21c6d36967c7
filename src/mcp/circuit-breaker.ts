/**
 * A server that keeps failing is left alone for a while: after `failures` failed calls in a row
 * the breaker opens and calls fail at once, without waiting on the server, for a cool-down that
 * doubles each time a probe fails (up to a ceiling). Once the cool-down is over, calls go
 * through as probes: the first success closes the breaker, a failure opens it again.
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

export interface BreakerSettings {
  /** Failed calls in a row that open the breaker. */
  failures: number;
  /** The first cool-down. */
  cooldownMs: number;
  /** The longest cool-down, however often probes fail. */
  ceilingMs: number;
}

export type BreakerState =
  | { state: 'closed' }
  | { state: 'open'; failures: number; retryInMs: number }
  /** The cool-down is over: the next call is a probe. */
  | { state: 'half-open'; failures: number };

export class CircuitBreaker {
  private consecutiveFailures = 0;
  private cooldownMs: number;
  /** When the current cool-down ends; undefined while closed. */
  private openUntil: number | undefined;

  constructor(
    private readonly settings: BreakerSettings,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.cooldownMs = settings.cooldownMs;
  }

  state(): BreakerState {
    if (this.openUntil === undefined) return { state: 'closed' };
    const retryInMs = Math.max(0, Math.round(this.openUntil - this.now()));
    return retryInMs > 0
      ? { state: 'open', failures: this.consecutiveFailures, retryInMs }
      : { state: 'half-open', failures: this.consecutiveFailures };
  }

  /** Whether a call may go to the server now. */
  allows(): boolean {
    return this.state().state !== 'open';
  }

  recordSuccess(): void {
    this.consecutiveFailures = 0;
    this.cooldownMs = this.settings.cooldownMs;
    this.openUntil = undefined;
  }

  recordFailure(): void {
    this.consecutiveFailures += 1;
    if (this.openUntil !== undefined) {
      // A probe failed: the server is still down, so it is left alone for longer.
      this.cooldownMs = Math.min(this.cooldownMs * 2, this.settings.ceilingMs);
      this.openUntil = this.now() + this.cooldownMs;
    } else if (this.consecutiveFailures >= this.settings.failures) {
      this.openUntil = this.now() + this.cooldownMs;
    }
  }
}

/** What the model is told instead of a call to a server whose breaker is open. */
export function breakerRefusal(server: string, state: BreakerState): string {
  const failures = state.state === 'closed' ? 0 : state.failures;
  const wait = state.state === 'open' ? ` for the next ${Math.ceil(state.retryInMs / 1000)} s` : '';
  return (
    `server "${server}" is not being called${wait}: its last ${failures} calls failed. ` +
    'After that, one call tries it again; until then, do without its tools or tell the user.'
  );
}

/**
 * Whether a call's failure says the server is not working: it timed out, the connection went, or
 * the transport failed. An error the server sent back (bad arguments, its own failure) shows it
 * working, and so does an answer that broke its output schema (the SDK's McpError too).
 */
export function isServerFailure(error: unknown): boolean {
  if (!(error instanceof McpError)) return true;
  return error.code === ErrorCode.RequestTimeout || error.code === ErrorCode.ConnectionClosed;
}
