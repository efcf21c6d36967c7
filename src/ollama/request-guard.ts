/**
 * One request's lifetime: an idle timeout (to the first byte and between chunks, never a
 * cap on a long answer), the caller's cancel signal, and a `fetch` for the `ollama`
 * package that honours both and keeps the package from writing to the console.
 */
import { isRecord } from '../shared/is-record.js';
import type { Logger } from '../shared/log.js';
import { abortError } from './failures.js';
import { readText, sendHttpRequest } from './http-request.js';
import { errorReply, packageReply, type PackageReply } from './package-reply.js';

export interface GuardOptions {
  /** Longest wait for the server; 0 or a non-finite value disables it. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** The response is an NDJSON stream, read by `replyObjects`. */
  streaming: boolean;
  timeoutError(): Error;
  log: Logger;
}

export class RequestGuard {
  /** The message of an `{"error": …}` line seen in the stream, if any. */
  serverError: string | undefined;
  private readonly controller = new AbortController();
  /** The body of the streamed reply (the socket's stream), once its headers are in, as its iterator. */
  private streamed: AsyncIterator<Uint8Array> | undefined;
  /**
   * A streamed reply is raced chunk by chunk: one timer, re-armed for each step, and one listener
   * on the cancel signal serve every step (a timer and a listener per chunk cost more than the
   * chunk's own handling). Both are set at the first step and let go by `release`.
   */
  private timer: NodeJS.Timeout | undefined;
  private listening = false;
  /** Fails the step being waited for; unset between steps. */
  private failStep: ((error: Error) => void) | undefined;
  private readonly onAbort = (): void => this.stop(abortError());

  constructor(private readonly options: GuardOptions) {}

  /** Tears the request down: the fetch and its body. */
  cancel(): void {
    this.controller.abort();
  }

  /** Lets go of the timer and the signal's listener, once the request is over (however it ended). */
  release(): void {
    clearTimeout(this.timer);
    if (this.listening) this.options.signal?.removeEventListener('abort', this.onAbort);
    this.listening = false;
    this.failStep = undefined;
  }

  /**
   * Waits for `work` (one step of the exchange with the server) under the idle timeout and
   * the cancel signal. Either of those settles at once and cancels the request, so a
   * cancelled turn never waits for the socket to unwind.
   */
  race<T>(work: Promise<T>): Promise<T> {
    if (this.options.signal?.aborted) {
      // The work is abandoned: its own failure (the request torn down under it) is expected, not unhandled.
      work.catch(() => undefined);
      this.cancel();
      return Promise.reject(abortError());
    }
    this.watch();
    return new Promise<T>((resolve, reject) => {
      this.failStep = reject;
      // A step failed by the timer settles later, maybe after the next step began: it clears only its own.
      const settled = (): void => {
        if (this.failStep === reject) this.failStep = undefined;
      };
      work.then(
        (value) => {
          settled();
          resolve(value);
        },
        (error: unknown) => {
          settled();
          reject(error);
        },
      );
    });
  }

  /** Arms the idle timer for the next step (and the signal's listener at the first). */
  private watch(): void {
    const { timeoutMs, signal } = this.options;
    if (!this.listening && signal) {
      signal.addEventListener('abort', this.onAbort, { once: true });
      this.listening = true;
    }
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) return;
    if (this.timer) this.timer.refresh();
    else this.timer = setTimeout(() => this.stop(this.options.timeoutError()), timeoutMs);
  }

  /** The timer or the signal fired: the step waited for, if any, fails; between steps the next one is timed anew. */
  private stop(error: Error): void {
    const failStep = this.failStep;
    if (!failStep) return;
    this.failStep = undefined;
    this.cancel();
    failStep(error);
  }

  /**
   * Passed to `new Ollama({ fetch })`; the request goes out over `node:http` (http-request.ts). The
   * package is handed the status and a read body (package-reply.ts); a streamed reply's body is
   * read by `replyObjects`, from the socket's stream, and the package's own reader of it is never used.
   */
  readonly fetch: typeof fetch = (input, init) =>
    // The package reads only what a `PackageReply` has of a `Response`; it is given no undici one.
    this.send(requestUrl(input), init ?? {}) as unknown as Promise<Response>;

  private async send(url: URL, init: RequestInit): Promise<PackageReply> {
    // The package creates its abort controller only once the headers are in; ours also
    // covers connecting and waiting for the first byte.
    init.signal?.addEventListener('abort', () => this.cancel(), { once: true });
    const reply = await sendHttpRequest(url, init, this.controller.signal);
    const status = reply.statusCode ?? 0;
    if (status < 200 || status > 299)
      return errorReply(status, await readText(reply).catch(() => ''), reply.statusMessage);
    if (!this.options.streaming) {
      return packageReply(status, await readText(reply), reply.headers['content-type'] ?? 'application/json');
    }
    this.streamed = reply[Symbol.asyncIterator]();
    return packageReply(status, '', reply.headers['content-type'] ?? 'application/x-ndjson', reply);
  }

  /**
   * The objects of the NDJSON reply the last request opened, read to the end of the
   * stream (cancelling a finished response costs more than reading its last bytes). Read
   * here rather than through the package's iterator, which warns on the console about a
   * line that is not JSON (corrupting the terminal UI) and would parse every line a second
   * time after this check. A line that is not a JSON object is logged and skipped; an
   * `{"error": …}` line ends the reply with that message; so does an end without `done`.
   */
  async *replyObjects(): AsyncGenerator<Record<string, unknown>> {
    const chunks = this.streamed;
    if (!chunks) throw new Error('the reply had no body');
    const decoder = new TextDecoder();
    let pending = '';
    let finished = false;
    let drained = false;
    try {
      while (!drained) {
        const next = await chunks.next();
        drained = next.done === true;
        // At the end, what is left (a last line without its newline) is read as a line too.
        const text = next.done ? decoder.decode() : decoder.decode(next.value, { stream: true });
        const lines = (pending + text).split('\n');
        pending = drained ? '' : (lines.pop() ?? '');
        for (const line of lines) {
          const object = this.readLine(line);
          if (object === undefined) continue;
          finished ||= object.done === true;
          yield object;
        }
      }
    } finally {
      // As `for await` would: a reader that stops before the end (its `return`, a failure) lets the stream go.
      if (!drained) await chunks.return?.();
    }
    if (!finished) throw new Error('the stream ended before the reply was complete');
  }

  private readLine(line: string): Record<string, unknown> | undefined {
    if (line.trim() === '') return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      parsed = undefined;
    }
    if (!isRecord(parsed)) {
      this.options.log.warn({ line: line.slice(0, 200) }, 'ollama sent a line that is not a JSON object; skipped');
      return undefined;
    }
    const error = parsed.error;
    if (error !== undefined) {
      this.serverError = typeof error === 'string' ? error : JSON.stringify(error);
      throw new Error(this.serverError);
    }
    return parsed;
  }
}

function requestUrl(input: string | URL | Request): URL {
  if (typeof input === 'string') return new URL(input);
  if (input instanceof URL) return input;
  throw new TypeError('a request to Ollama is given by its URL');
}
