/**
 * Downloading a model through Ollama's `/api/pull`. Ollama streams NDJSON: `pulling manifest`,
 * then per layer `{status: "pulling <digest>", digest, total, completed}` with `completed`
 * growing, then `verifying sha256 digest`, `writing manifest`, `success`. A name the library
 * does not know ends the stream with `{"error": "pull model manifest: file does not exist"}`
 * (HTTP 200, as every failure once the stream has started). Cancelling aborts the request;
 * Ollama keeps the layers it has, so the next pull of the model resumes.
 */
import { Ollama } from 'ollama';
import { PULL_RESUMES, type PullProgress } from '../vocabulary/model-pull.js';
import { OllamaError } from '../shared/errors.js';
import type { Logger } from '../shared/log.js';
import {
  abortError,
  isConnectionError,
  isResponseError,
  lostConnectionDetail,
  type Target,
  toOllamaError,
  withRetry,
} from './failures.js';
import type { RequestGuard } from './request-guard.js';

/** What Ollama says of a name the registry has no manifest for (older and newer wordings). */
const NOT_IN_LIBRARY = /file does not exist|manifest[^"]*not found/i;

function notInLibrary(model: string): OllamaError {
  return new OllamaError(
    `no model named '${model}' in the Ollama library`,
    'model-missing',
    'Check the name at https://ollama.com/library',
  );
}

function pullFailed(target: Target, detail: string, hint: string | undefined): OllamaError {
  return new OllamaError(`pulling ${target.model} through ${target.baseUrl} failed: ${detail}`, 'request-failed', hint);
}

/** Each layer's size and progress as reported, summed over the layers. */
class LayerTally {
  private readonly layers = new Map<string, { total: number; completed: number; before: number }>();

  record(line: Record<string, unknown>): void {
    const { digest, total, completed } = line;
    if (typeof digest !== 'string' || typeof total !== 'number') return;
    // Go leaves `completed` out while it is 0.
    const done = typeof completed === 'number' ? completed : 0;
    const known = this.layers.get(digest);
    // What a layer had at its first report was on disk before this pull: it did not arrive now.
    if (known) known.completed = Math.max(known.completed, done);
    else this.layers.set(digest, { total, completed: done, before: done });
  }

  progress(status: string): PullProgress {
    let total = 0;
    let completed = 0;
    let transferred = 0;
    for (const layer of this.layers.values()) {
      total += layer.total;
      completed += layer.completed;
      transferred += layer.completed - layer.before;
    }
    return { status, total, completed, transferred };
  }
}

function pullFailure(error: unknown, target: Target, guard: RequestGuard, signal: AbortSignal | undefined): Error {
  if (signal?.aborted) return abortError();
  const said = guard.serverError ?? (isResponseError(error) ? error.error : undefined);
  if (said !== undefined && NOT_IN_LIBRARY.test(said)) return notInLibrary(target.model);
  if (guard.serverError !== undefined) return pullFailed(target, guard.serverError, PULL_RESUMES);
  // Refused before any download (a proxy, a server that is not Ollama): what it said, not a hint to pull.
  if (isResponseError(error)) return pullFailed(target, `HTTP ${error.status_code}: ${error.error}`, undefined);
  if (error instanceof OllamaError || isConnectionError(error)) {
    return toOllamaError(error, target);
  }
  // The stream broke after it had started (Ollama stopped, the connection dropped).
  return pullFailed(target, lostConnectionDetail(error), PULL_RESUMES);
}

/**
 * Pulls `target.model`, yielding the progress after each line Ollama sends; returns once
 * Ollama says `success`. Throws an `OllamaError` (or an `AbortError` when `signal` fires).
 */
export async function* pullModel(
  target: Target,
  guard: RequestGuard,
  signal: AbortSignal | undefined,
  log: Logger,
): AsyncGenerator<PullProgress> {
  if (signal?.aborted) throw abortError();
  const api = new Ollama({ host: target.baseUrl, fetch: guard.fetch });
  let succeeded = false;
  try {
    // The package sends the request and turns an error status into a `ResponseError`; the guard
    // reads the stream that request opened (the package's own reader writes to the console).
    await withRetry(() => guard.race(api.pull({ model: target.model, stream: true })), signal, log);
    const lines = guard.replyObjects();
    const tally = new LayerTally();
    for (;;) {
      // Checked before the next read: on a signal already aborted `race` gives up at once, and the
      // read's own failure (the request torn down under it) would go unheard.
      if (signal?.aborted) throw abortError();
      const next = await guard.race(lines.next());
      if (next.done) throw new Error('the stream ended before the pull was complete');
      const status = typeof next.value.status === 'string' ? next.value.status : '';
      tally.record(next.value);
      succeeded = status === 'success';
      yield tally.progress(status);
      if (succeeded) break;
    }
    // `success` is Ollama's last line: the stream is let go rather than read to its end.
    await lines.return(undefined);
    log.info({ model: target.model }, 'model pulled');
  } catch (error) {
    throw pullFailure(error, target, guard, signal);
  } finally {
    // A consumer that stopped early, or a failure: release the connection now.
    if (!succeeded) guard.cancel();
    guard.release();
  }
}
