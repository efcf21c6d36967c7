/**
 * Logging: pino JSON to a file, never to stdout (Ink owns the terminal, and a stdio
 * MCP server's stdout is its protocol channel). Secrets are redacted twice: by key
 * (`authorization`, `token`, …) and by shape inside any logged string.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import { pino, type Logger, type LoggerOptions } from 'pino';
import { openRotatingLog, type RotationOptions } from './log-rotation.js';

export type { Logger };

const REDACTED = '[REDACTED]';

// Security: keys whose values are credentials wherever they appear in a log object.
const SECRET_KEYS = ['authorization', 'Authorization', 'token', 'GITHUB_TOKEN', 'apiKey', 'password', 'cookie'];
const REDACT_PATHS = SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]);

// Security: credential shapes that can hide inside free text (a server's stderr, an error message).
const SECRET_PATTERNS: RegExp[] = [
  /\b(Bearer|Basic|token)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\b(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})\b/g,
];

/**
 * Fields every line logged inside `logContext.run(fields, …)` carries, from any logger and any
 * child of one: a served turn's `requestId` and `sessionId` reach the lines of the model client
 * and the MCP host, whose loggers were made before the turn began.
 */
export const logContext = new AsyncLocalStorage<Record<string, string>>();

export function redactSecrets(text: string): string {
  return SECRET_PATTERNS.reduce(
    (out, pattern) =>
      out.replace(pattern, (_match, scheme: string) =>
        /^(Bearer|Basic|token)$/i.test(scheme) ? `${scheme} ${REDACTED}` : REDACTED,
      ),
    text,
  );
}

/**
 * Where a silent logger writes (nothing reaches it). Without a stream of its own pino would open an
 * asynchronous writer on stdout, with exit handlers and `node:worker_threads` behind it, as soon
 * as this module loads.
 */
const DISCARD = { write: (): void => undefined };

export interface LogOptions {
  level: string;
  /** Log file path; `null` discards everything (tests, benchmarks). */
  file: string | null;
}

/** The same logger over one file that is never rotated (tests that read what was logged). */
export function createLogger(options: LogOptions): Logger {
  if (options.file === null) return pino({ level: 'silent' }, DISCARD);
  fs.mkdirSync(path.dirname(options.file), { recursive: true, mode: 0o700 });
  // Synchronous writes: a crash mid-turn must still leave a complete, readable log. Private, as the rotated log is.
  const destination = pino.destination({ dest: options.file, sync: true, mkdir: true, mode: 0o600 });
  return pino(loggerOptions(options.level), destination);
}

/** mcp-chat's log: `file` is kept by size, a few files at most (log-rotation.ts). */
export function openLogger(options: { level: string } & RotationOptions): Logger {
  // The first link is placed before the logger exists: its problem is told once the logger does.
  const early: unknown[] = [];
  let report = (error: unknown): void => void early.push(error);
  const stream = openRotatingLog(options, (error) => report(error));
  const logger = pino(loggerOptions(options.level), stream);
  report = (error) => logger.warn({ err: error, file: options.file }, 'the log file link could not be placed');
  early.forEach(report);
  return logger;
}

function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    mixin: () => logContext.getStore() ?? {},
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    hooks: {
      // Strings passed as messages are scrubbed too: pino's `redact` only sees keys.
      logMethod(args, method) {
        const scrubbed = args.map((arg) => (typeof arg === 'string' ? redactSecrets(arg) : arg));
        method.apply(this, scrubbed as Parameters<typeof method>);
      },
    },
    serializers: {
      // `err` is whatever was caught: an Error (maybe without a stack), a string, anything.
      err(error: unknown) {
        if (typeof error === 'string') return redactSecrets(error);
        if (!(error instanceof Error)) return error;
        const serialized = pino.stdSerializers.err(error);
        const text = (value: unknown): string | undefined =>
          typeof value === 'string' ? redactSecrets(value) : undefined;
        return { ...serialized, message: text(serialized.message) ?? '', stack: text(serialized.stack) };
      },
    },
  };
}

export const silentLogger: Logger = pino({ level: 'silent' }, DISCARD);
