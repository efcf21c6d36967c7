/**
 * Failures talking to Ollama, turned into `OllamaError`s that say what happened and what
 * to do. Policy: only connection-level failures are retried (3 attempts, exponential
 * backoff); an HTTP status is an answer, never retried.
 */
import pRetry from 'p-retry';
import { OllamaError } from '../shared/errors.js';
import type { Logger } from '../shared/log.js';

const ATTEMPTS = 3;
// 200 ms, then 400 ms: rides out Ollama restarting, yet a stopped server is reported within a second.
const FIRST_RETRY_DELAY_MS = 200;

export const START_HINT = 'Start it with `ollama serve` (or open the Ollama app), or point --host / OLLAMA_HOST at it';

/** Where a request went, for messages. */
export interface Target {
  baseUrl: string;
  model: string;
}

/** Cancellation is told apart from failure by this name, as `fetch` does. */
export function abortError(): Error {
  const error = new Error('The request to Ollama was cancelled');
  error.name = 'AbortError';
  return error;
}

/** The `ollama` package's `ResponseError`, which it does not export. */
export function isResponseError(error: unknown): error is Error & { error: string; status_code: number } {
  return (
    error instanceof Error && error.name === 'ResponseError' && typeof Reflect.get(error, 'status_code') === 'number'
  );
}

/** A request that got no answer: refused, reset, name not found, TLS; its cause's `code` tells which. */
export class ConnectionError extends Error {
  constructor(cause: Error) {
    super(`no answer from Ollama: ${cause.message}`, { cause });
    this.name = 'ConnectionError';
  }
}

export function isConnectionError(error: unknown): error is ConnectionError {
  return error instanceof ConnectionError;
}

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

function connectionReason(error: ConnectionError): string {
  const cause: unknown = error.cause;
  const code = cause instanceof Error ? Reflect.get(cause, 'code') : undefined;
  if (typeof code === 'string') return REASONS[code] ?? code;
  return cause instanceof Error ? cause.message : error.message;
}

/** What broke a reply that had started: Node's reply stream fails with "aborted" (ECONNRESET) when the server goes. */
export function lostConnectionDetail(error: unknown): string {
  if (error instanceof Error && Reflect.get(error, 'code') === 'ECONNRESET') return 'the connection was lost';
  return error instanceof Error ? error.message : String(error);
}

export function unreachable(target: Target, reason: string): OllamaError {
  return new OllamaError(`Ollama is not reachable at ${target.baseUrl} (${reason})`, 'unreachable', START_HINT);
}

export function modelMissing(target: Target): OllamaError {
  return new OllamaError(
    `model ${target.model} is not available on ${target.baseUrl}`,
    'model-missing',
    `Pull it with \`ollama pull ${target.model}\` or \`mcp-chat pull ${target.model}\``,
  );
}

export function idleTimeout(target: Target, timeoutMs: number): OllamaError {
  return new OllamaError(
    `Ollama at ${target.baseUrl} sent nothing for ${Math.round(timeoutMs / 100) / 10} s`,
    'request-failed',
    'A model that is still loading can take a while; raise `ollama.timeout` in the config',
  );
}

export function failedMidReply(target: Target, detail: string): OllamaError {
  return new OllamaError(
    `Ollama at ${target.baseUrl} failed mid-reply: ${detail}`,
    'request-failed',
    'Check that Ollama is still running; it may have run out of memory',
  );
}

// Go's router answers unknown paths with this text: a 404 then means "not Ollama", not "no model".
const NOT_OLLAMA_404 = /page not found/i;

/**
 * What Ollama answers, with `truncate: false`, to a prompt longer than the loaded context: its own
 * runner "the input length exceeds the context length", llama.cpp's server (whose JSON Ollama
 * passes on as the message) "request (N tokens) exceeds the available context size (M tokens)".
 */
const CONTEXT_EXCEEDED = /exceeds the (?:available )?context (?:length|size)/i;

/** The sizes llama.cpp's message names, when it names them. */
function contextSizes(text: string): { prompt: number; context: number } | undefined {
  const sizes = /\((\d+) tokens\) exceeds the available context size \((\d+) tokens\)/.exec(text);
  return sizes ? { prompt: Number(sizes[1]), context: Number(sizes[2]) } : undefined;
}

function fromStatus(status: number, text: string, target: Target): OllamaError {
  if (status === 404 && !NOT_OLLAMA_404.test(text)) return modelMissing(target);
  if (CONTEXT_EXCEEDED.test(text)) {
    const sizes = contextSizes(text);
    const detail = sizes ? `about ${sizes.prompt} tokens, the context holds ${sizes.context}` : text;
    return new OllamaError(
      `the conversation is too long for the model's context: Ollama at ${target.baseUrl} refused it (${detail})`,
      'context-exceeded',
      '/compact shortens it, /clear starts afresh; or raise ollama.num_ctx in mcp_config.json if the model supports a longer context',
      sizes?.prompt,
    );
  }
  if (status === 400 && /does not support tools/i.test(text)) {
    return new OllamaError(`model ${target.model} does not support native tool calls (${text})`, 'no-tool-support');
  }
  return new OllamaError(`Ollama at ${target.baseUrl} answered HTTP ${status}: ${text}`, 'request-failed');
}

/** Any failure of a request that had not started a reply. */
export function toOllamaError(error: unknown, target: Target): OllamaError {
  if (error instanceof OllamaError) return error;
  if (isResponseError(error)) return fromStatus(error.status_code, error.error, target);
  if (isConnectionError(error)) return unreachable(target, connectionReason(error));
  const detail = error instanceof Error ? error.message : String(error);
  return new OllamaError(`request to Ollama at ${target.baseUrl} failed: ${detail}`, 'request-failed');
}

/**
 * Runs `attempt`, again after a backoff when the connection itself failed. Nearly every request
 * succeeds at once, so p-retry (its options, checks and timers: a tenth of a turn's own CPU) is
 * entered only after a first connection failure, with that failure as its first attempt, so the
 * backoff and the log lines are the same as p-retry's from the start.
 */
export function withRetry<T>(attempt: () => Promise<T>, signal: AbortSignal | undefined, log: Logger): Promise<T> {
  return attempt().catch((firstFailure: unknown) => {
    if (!isConnectionError(firstFailure)) throw firstFailure;
    return pRetry((attemptNumber) => (attemptNumber === 1 ? Promise.reject(firstFailure) : attempt()), {
      retries: ATTEMPTS - 1,
      factor: 2,
      minTimeout: FIRST_RETRY_DELAY_MS,
      signal,
      shouldRetry: ({ error }) => isConnectionError(error),
      onFailedAttempt: ({ error, attemptNumber, retriesLeft }) => {
        if (isConnectionError(error) && retriesLeft > 0) {
          log.debug({ attempt: attemptNumber, reason: connectionReason(error) }, 'ollama connection failed; retrying');
        }
      },
    });
  });
}
