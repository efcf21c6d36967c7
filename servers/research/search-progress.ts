/**
 * What a search_papers call tells the client while it waits on arXiv: each wait as it begins
 * ("waiting 2.1 s for arXiv's rate limit", "asking arXiv", "retry 1 of 2 in 4.0 s …"), then
 * again every second while it lasts, so the user sees it is alive and a client that extends
 * a call's timeout on progress (mcp-chat does) does not give up on a slow but working search.
 */
import { assertNever } from '../shared/assert-never.js';
import { ProgressReporter, type ToolExtra } from '../shared/progress.js';
import type { SearchWait } from './arxiv-client.js';

const REPEAT_MS = 1_000;

export class SearchProgress {
  private wait: SearchWait | undefined;
  private since = 0;
  private timer: NodeJS.Timeout | undefined;

  private constructor(private readonly reporter: ProgressReporter) {}

  /** Progress for this call, or undefined when the client asked for none. */
  static start(extra: ToolExtra): SearchProgress | undefined {
    const reporter = ProgressReporter.for(extra);
    return reporter === undefined ? undefined : new SearchProgress(reporter);
  }

  /** For `ArxivClient.search`: a new wait begins. */
  readonly onWait = (wait: SearchWait): void => {
    this.wait = wait;
    this.since = performance.now();
    this.reporter.report(describeWait(wait, this.since, this.since));
    // Counted from this wait's start, so "1 s so far" comes a second into it.
    clearInterval(this.timer);
    this.timer = setInterval(() => this.repeat(), REPEAT_MS);
  };

  /** Stops reporting; settles once every report is sent, so none arrives after the result. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.reporter.flushed();
  }

  private repeat(): void {
    if (this.wait === undefined) return;
    const now = performance.now();
    // A wait whose deadline has passed is over; the next one is told when it begins.
    if ('untilMs' in this.wait && this.wait.untilMs <= now) return;
    this.reporter.report(describeWait(this.wait, this.since, now));
  }
}

/** One progress line for `wait`, begun at `sinceMs`, as of `nowMs`. */
export function describeWait(wait: SearchWait, sinceMs: number, nowMs: number): string {
  switch (wait.kind) {
    case 'queue':
      return 'waiting for an earlier arXiv search to finish';
    case 'rate-limit':
      return `waiting ${seconds(wait.untilMs - nowMs)} s for arXiv's rate limit`;
    case 'retry':
      return `retry ${wait.retry} of ${wait.retries} in ${seconds(wait.untilMs - nowMs)} s (${wait.failure})`;
    case 'request': {
      const attempt = wait.attempt > 1 ? ` (attempt ${wait.attempt} of ${wait.attempts})` : '';
      // Rounded: a timer may fire a millisecond before the second is full.
      const elapsed = Math.round((nowMs - sinceMs) / 1000);
      return `asking arXiv${attempt}${elapsed >= 1 ? `, ${elapsed} s so far` : ''}`;
    }
    default:
      return assertNever(wait);
  }
}

function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(1);
}
