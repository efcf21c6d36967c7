/**
 * Typed errors and process exit codes: the only error helpers in the program.
 * Expected failures carry an exit code and an optional hint; the CLI prints them as
 * one line, never as a stack trace.
 */

export const ExitCode = {
  ok: 0,
  /** Ollama unreachable, model missing, a `call` whose result is an error. */
  runtime: 1,
  /** Bad usage or invalid configuration. */
  usage: 2,
  /** The step limit was reached without a final answer. */
  stepLimit: 3,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export class McpChatError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = ExitCode.runtime,
    /** What the user can do about it, shown under the message. */
    readonly hint?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The configuration file or environment is invalid (exit 2). */
export class ConfigError extends McpChatError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.usage, hint);
  }
}

/** The command line itself is wrong (exit 2). */
export class UsageError extends McpChatError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.usage, hint);
  }
}

/** Ollama is unreachable, the model is missing, or the model call failed (exit 1). */
export class OllamaError extends McpChatError {
  constructor(
    message: string,
    readonly kind: 'unreachable' | 'model-missing' | 'no-tool-support' | 'context-exceeded' | 'request-failed',
    hint?: string,
    /** A refused prompt's tokens as Ollama counted them, when it said (`context-exceeded`). */
    readonly promptTokens?: number,
  ) {
    super(message, ExitCode.runtime, hint);
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Compile-time exhaustiveness check for `switch` over tagged unions. */
export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}
