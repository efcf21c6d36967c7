/**
 * One request's lifetime: an idle timeout (to the first byte and between chunks, never a
 * cap on a long answer), the caller's cancel signal, and a `fetch` for the `ollama`
 * package that honours both and keeps the package from writing to the console.
 */
import type { Logger } from '../log.js';
import { abortError } from './failures.js';

export interface GuardOptions {
  /** Longest wait for the server; 0 or a non-finite value disables it. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Response bodies are NDJSON streams to re-frame (see `guardNdjson`). */
  streaming: boolean;
  timeoutError(): Error;
  log: Logger;
}

export class RequestGuard {
  /** The message of an `{"error": …}` line seen in the stream, if any. */
  serverError: string | undefined;
  private readonly controller = new AbortController();
  private readonly cancelHooks: Array<() => void> = [];

  constructor(private readonly options: GuardOptions) {}

  /** Also run `hook` when the request is cancelled (the package's own iterator abort). */
  onCancel(hook: () => void): void {
    this.cancelHooks.push(hook);
  }

  /** Tears the request down: the fetch, its body, and whatever registered `onCancel`. */
  cancel(): void {
    if (this.controller.signal.aborted) return;
    this.controller.abort();
    for (const hook of this.cancelHooks) hook();
  }

  /**
   * Waits for `work` (one step of the exchange with the server) under the idle timeout and
   * the cancel signal. Either of those settles at once and cancels the request, so a
   * cancelled turn never waits for the socket to unwind.
   */
  race<T>(work: Promise<T>): Promise<T> {
    const { timeoutMs, signal } = this.options;
    return new Promise<T>((resolve, reject) => {
      const stop = (error: Error): void => {
        this.cancel();
        reject(error);
      };
      if (signal?.aborted) {
        stop(abortError());
        return;
      }
      const onAbort = (): void => stop(abortError());
      signal?.addEventListener('abort', onAbort, { once: true });
      const timer = Number.isFinite(timeoutMs) && timeoutMs > 0 ? setTimeout(() => stop(this.options.timeoutError()), timeoutMs) : undefined;
      void work.then(resolve, reject).finally(() => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      });
    });
  }

  /** Passed to `new Ollama({ fetch })`. */
  readonly fetch: typeof fetch = async (input, init) => {
    // The package creates its abort controller only once the headers are in; ours also
    // covers connecting and waiting for the first byte.
    const signals = init?.signal ? [this.controller.signal, init.signal] : [this.controller.signal];
    const response = await fetch(input, { ...init, signal: AbortSignal.any(signals) });
    if (!response.ok) return jsonErrorResponse(response);
    if (!this.options.streaming || !response.body) return response;
    const body = guardNdjson(response.body, {
      onError: (message) => {
        this.serverError = message;
      },
      onInvalid: (line) => this.options.log.warn({ line: line.slice(0, 200) }, 'ollama sent a line that is not JSON; skipped'),
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

function errorField(text: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    const field = typeof parsed === 'object' && parsed !== null ? Reflect.get(parsed, 'error') : undefined;
    return typeof field === 'string' ? field : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Rewrites any error body as `{"error": text}`: on other bodies (a proxy's HTML, plain
 * text) the package prints to the console, which would corrupt the terminal UI.
 */
async function jsonErrorResponse(response: Response): Promise<Response> {
  const text = await response.text().catch(() => '');
  const message = errorField(text) ?? (text.trim() || `${response.status} ${response.statusText}`.trim());
  return new Response(JSON.stringify({ error: message }), {
    status: response.status,
    statusText: response.statusText,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}

interface LineHooks {
  onError(message: string): void;
  onInvalid(line: string): void;
}

/**
 * Passes on only complete lines that parse as JSON (the package warns on the console about
 * anything else) and notes `{"error": …}` lines so they can be told apart from other failures.
 */
function guardNdjson(body: ReadableStream<Uint8Array>, hooks: LineHooks): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = '';
  const forward = (lines: string[], controller: TransformStreamDefaultController<Uint8Array>): void => {
    for (const line of lines) {
      if (line.trim() === '') continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        hooks.onInvalid(line);
        continue;
      }
      const error = typeof parsed === 'object' && parsed !== null ? Reflect.get(parsed, 'error') : undefined;
      if (error !== undefined) hooks.onError(typeof error === 'string' ? error : JSON.stringify(error));
      controller.enqueue(encoder.encode(`${line}\n`));
    }
  };
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        pending += decoder.decode(chunk, { stream: true });
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        forward(lines, controller);
      },
      flush(controller) {
        forward([pending + decoder.decode()], controller);
      },
    }),
  );
}
