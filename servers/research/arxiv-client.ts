/**
 * HTTP access to the arXiv API with arXiv's etiquette built in: one request at a time, at least
 * `minIntervalMs` (+ random jitter) apart; 3 attempts with exponential backoff on network errors,
 * timeouts, 429 and 5xx, never sooner than a Retry-After; other 4xx fail at once.
 */
import { setTimeout as delay } from 'node:timers/promises';
import pRetry from 'p-retry';
import { arxivErrorDetail } from './atom.js';
import { BodyTooLargeError, formatBytes, readTextCapped } from './read-capped.js';

export interface ArxivClientOptions {
  apiUrl: string;
  /** arXiv asks for no more than one request every 3 s. */
  minIntervalMs?: number;
  /** Random extra spacing, so several clients started together do not fire in step. */
  jitterMs?: number;
  timeoutMs?: number;
  /** Largest response body read; a longer one fails the search (default 16 MB). */
  maxBodyBytes?: number;
  /** First retry delay (exponential backoff); it doubles for each further retry. */
  retryBaseMs?: number;
  attempts?: number;
  fetch?: typeof fetch;
  /** Diagnostics; servers keep stdout for JSON-RPC, so the default is stderr. */
  log?: (line: string) => void;
}

/** A search that failed for good; the message is written for the model and the user. */
export class ArxivError extends Error {}

/**
 * What a search is waiting for, told as each wait begins (for progress reports). Deadlines are
 * `performance.now()` times: the clock the request spacing runs on.
 */
export type SearchWait =
  /** Behind another search of this server: one request at a time. */
  | { kind: 'queue' }
  /** The spacing arXiv asks for between requests (or a Retry-After another search was given). */
  | { kind: 'rate-limit'; untilMs: number }
  /** The backoff (never shorter than the spacing) before retry `retry` of `retries`, after `failure`. */
  | { kind: 'retry'; untilMs: number; retry: number; retries: number; failure: string }
  /** The request itself, until arXiv's whole answer is read. */
  | { kind: 'request'; attempt: number; attempts: number };

const DEFAULT_MIN_INTERVAL_MS = 3_000;
const DEFAULT_JITTER_MS = 1_000;
const DEFAULT_TIMEOUT_MS = 20_000;
const DEFAULT_RETRY_BASE_MS = 1_000;
const DEFAULT_ATTEMPTS = 3;
/**
 * 50 entries (the most a search asks for) are about 150 KB; even 50 collaboration papers with
 * thousands of authors each stay under this. A body past it is hostile or broken, never a feed.
 */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;
/** Beyond this a Retry-After is not waited out inside one tool call; the user is told to come back. */
const MAX_RETRY_AFTER_MS = 60_000;
const USER_AGENT = 'mcp-chat-research/0.1 (MCP research server)';

/** One failed attempt; `retryable` decides whether p-retry tries again. */
class AttemptError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

export class ArxivClient {
  private readonly apiUrl: URL;
  private readonly gate: RequestGate;
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;
  private readonly maxBodyBytes: number;
  private readonly retryBaseMs: number;
  private readonly attempts: number;
  private readonly log: (line: string) => void;

  constructor(options: ArxivClientOptions) {
    this.apiUrl = new URL(options.apiUrl);
    if (!['http:', 'https:'].includes(this.apiUrl.protocol))
      throw new Error(`arXiv API URL must be http(s): ${options.apiUrl}`);
    this.gate = new RequestGate(
      options.minIntervalMs ?? DEFAULT_MIN_INTERVAL_MS,
      options.jitterMs ?? DEFAULT_JITTER_MS,
    );
    this.fetchImpl = options.fetch ?? globalThis.fetch;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.retryBaseMs = options.retryBaseMs ?? DEFAULT_RETRY_BASE_MS;
    this.attempts = options.attempts ?? DEFAULT_ATTEMPTS;
    this.log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  }

  /** The Atom feed text for `all:<topic>`, best matches first. `onWait` hears of each wait as it begins. */
  async search(
    topic: string,
    maxResults: number,
    signal?: AbortSignal,
    onWait: (wait: SearchWait) => void = () => {},
  ): Promise<string> {
    const url = this.queryUrl(topic, maxResults);
    let made = 0;
    let lastFailure = '';
    const attempts = this.attempts;
    try {
      return await pRetry(
        (attemptNumber) => {
          made = attemptNumber;
          const attempt = (): Promise<string> => {
            onWait({ kind: 'request', attempt: attemptNumber, attempts });
            return this.attemptWithBackoff(url, signal, attemptNumber);
          };
          return this.gate.run(attempt, signal, {
            queued: () => onWait({ kind: 'queue' }),
            waiting: (untilMs) =>
              onWait(
                attemptNumber === 1
                  ? { kind: 'rate-limit', untilMs }
                  : { kind: 'retry', untilMs, retry: attemptNumber - 1, retries: attempts - 1, failure: lastFailure },
              ),
          });
        },
        {
          retries: this.attempts - 1,
          // The gate does all the waiting (backoff, interval, Retry-After) on one clock, so the three
          // combine as "not before the latest of them" instead of adding up.
          minTimeout: 0,
          signal,
          shouldRetry: ({ error }) => error instanceof AttemptError && error.retryable,
          onFailedAttempt: ({ error, attemptNumber, retriesLeft }) => {
            if (!(error instanceof AttemptError && error.retryable && retriesLeft > 0)) return;
            lastFailure = error.message;
            this.log(`research: arXiv attempt ${attemptNumber} of ${this.attempts} failed: ${error.message}; retrying`);
          },
        },
      );
    } catch (error) {
      if (!(error instanceof AttemptError)) throw error;
      const after = error.retryable && made > 1 ? ` after ${made} attempts; try again later` : '';
      throw new ArxivError(`${error.message}${after}`);
    }
  }

  queryUrl(topic: string, maxResults: number): URL {
    const url = new URL(this.apiUrl);
    url.searchParams.set('search_query', `all:${topic.trim().replace(/\s+/g, ' ')}`);
    url.searchParams.set('start', '0');
    url.searchParams.set('max_results', String(maxResults));
    url.searchParams.set('sortBy', 'relevance');
    return url;
  }

  private async attemptWithBackoff(url: URL, signal: AbortSignal | undefined, attemptNumber: number): Promise<string> {
    try {
      return await this.attempt(url, signal);
    } catch (error) {
      // Deferred while the gate is still held, so no other search slips in before the backoff.
      if (error instanceof AttemptError && error.retryable && attemptNumber < this.attempts) {
        this.gate.deferUntil(performance.now() + this.retryBaseMs * 2 ** (attemptNumber - 1));
      }
      throw error;
    }
  }

  private async attempt(url: URL, signal: AbortSignal | undefined): Promise<string> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    let response: Response;
    let body: string;
    try {
      response = await this.fetchImpl(url, {
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        headers: { 'User-Agent': USER_AGENT, Accept: 'application/atom+xml' },
      });
      body = await readTextCapped(response, this.maxBodyBytes);
    } catch (error) {
      // The caller cancelled: not a failure of arXiv's, so nothing to retry or report.
      if (signal?.aborted) throw error;
      // Not retried: the same query would bring the same flood.
      if (error instanceof BodyTooLargeError) throw this.tooLargeError();
      if (timeout.aborted) throw new AttemptError(`arXiv did not answer within ${this.timeoutMs / 1000} s`, true);
      throw new AttemptError(`arXiv could not be reached (${networkCause(error)})`, true);
    }
    if (response.ok) return body;
    throw this.statusError(response, body);
  }

  private tooLargeError(): AttemptError {
    return new AttemptError(
      `arXiv's answer is larger than ${formatBytes(this.maxBodyBytes)}, the most one response may be; stopped ` +
        `reading it. Check that ARXIV_API_URL (${this.apiUrl.href}) is the arXiv API`,
      false,
    );
  }

  private statusError(response: Response, body: string): AttemptError {
    const { status } = response;
    if (status !== 429 && status < 500) {
      const detail = arxivErrorDetail(body);
      if (detail) return new AttemptError(`arXiv rejected the query (HTTP ${status}): ${detail}`, false);
      return new AttemptError(
        `arXiv rejected the request (HTTP ${status}); check that ARXIV_API_URL (${this.apiUrl.href}) is the arXiv API`,
        false,
      );
    }
    const what =
      status === 429 ? `arXiv is rate-limiting requests (HTTP 429)` : `arXiv is unavailable (HTTP ${status})`;
    const waitMs = parseRetryAfter(response.headers.get('retry-after'));
    if (waitMs !== undefined && waitMs > MAX_RETRY_AFTER_MS) {
      return new AttemptError(`${what} and asked to wait ${Math.ceil(waitMs / 1000)} s; try again later`, false);
    }
    if (waitMs !== undefined) this.gate.deferUntil(performance.now() + waitMs);
    return new AttemptError(what, true);
  }
}

/** Retry-After as milliseconds from `nowMs`: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null, nowMs: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // HTTP dates always name a day and month; this also keeps Date.parse from reading "-5" as a year.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/**
 * Lets one request through at a time, each at least `minIntervalMs` + jitter after the previous
 * one finished and never before a backoff or Retry-After deadline. The first request of a process goes at once.
 * Counting from the previous answer (not from sending it) keeps the spacing as arXiv sees it,
 * whatever the network latency.
 */
class RequestGate {
  private tail: Promise<unknown> = Promise.resolve();
  private lastEnd: number | undefined;
  private notBefore = 0;
  /** Requests given to `run` and not yet settled, so a newcomer knows it has to queue. */
  private busy = 0;

  constructor(
    private readonly minIntervalMs: number,
    private readonly jitterMs: number,
  ) {}

  run<T>(request: () => Promise<T>, signal: AbortSignal | undefined, hooks: GateHooks = {}): Promise<T> {
    if (this.busy > 0) hooks.queued?.();
    this.busy++;
    const turn = this.tail
      .then(async () => {
        const spaced =
          this.lastEnd === undefined ? 0 : this.lastEnd + this.minIntervalMs + Math.random() * this.jitterMs;
        const deadline = Math.max(spaced, this.notBefore);
        if (deadline > performance.now()) hooks.waiting?.(deadline);
        await sleepUntil(deadline, signal);
        try {
          return await request();
        } finally {
          this.lastEnd = performance.now();
        }
      })
      .finally(() => {
        this.busy--;
      });
    this.tail = turn.catch(() => undefined);
    return turn;
  }

  deferUntil(deadline: number): void {
    this.notBefore = Math.max(this.notBefore, deadline);
  }
}

/** What a request waiting at the gate hears: that it queues behind others, and until when it then waits. */
interface GateHooks {
  queued?: () => void;
  waiting?: (untilMs: number) => void;
}

async function sleepUntil(deadline: number, signal: AbortSignal | undefined): Promise<void> {
  // Timers may fire a millisecond early against performance.now(); wait again until it really passed.
  for (let left = deadline - performance.now(); left > 0; left = deadline - performance.now()) {
    await delay(Math.ceil(left), undefined, { signal });
  }
  signal?.throwIfAborted();
}

/** "ECONNREFUSED", "ENOTFOUND"… from undici's `fetch failed` wrapper, else the message. */
function networkCause(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error) {
    const code = 'code' in cause && typeof cause.code === 'string' ? cause.code : undefined;
    return code ?? cause.message;
  }
  return error instanceof Error ? error.message : String(error);
}
