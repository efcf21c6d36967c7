/**
 * What `ask` writes to stdout, by `--output-format`: `text` streams the answer (or, with
 * `--output-schema`, prints it whole once it conforms); `json` prints one object at the end;
 * `stream-json` prints a line per event (stream-json.ts). Diagnostics go to stderr elsewhere.
 */
import type { TurnEvent } from '../vocabulary/types.js';
import { ExitCode, UsageError } from '../shared/errors.js';
import { jsonForTerminal } from '../shared/terminal-text.js';
import type { AnswerSchema } from './answer-schema.js';
import type { AskEnd, AskPrinter, AskSummary } from './ask-printer.js';
import type { Output } from './output.js';
import { StreamJsonPrinter } from './stream-json.js';

export const OUTPUT_FORMATS = ['text', 'json', 'stream-json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** `--json` is `--output-format json`; given with another format, which is meant is unclear. */
export function outputFormatOf(options: { json?: boolean; outputFormat?: OutputFormat }): OutputFormat {
  const { json, outputFormat } = options;
  if (json && outputFormat !== undefined && outputFormat !== 'json')
    throw new UsageError(`--json and --output-format ${outputFormat} contradict each other: give one of them`);
  return json ? 'json' : (outputFormat ?? 'text');
}

/**
 * A turn that answered is checked against `--output-schema`: an answer that does not conform is
 * a failure (exit 1), with Ajv's account of what is wrong on stderr.
 */
export function checkedEnd(end: AskEnd, answer: string, schema: AnswerSchema | undefined, output: Output): AskEnd {
  if (!schema || end.exitCode !== 0) return end;
  const check = schema.check(answer);
  if (check.ok) return end;
  const message = `the answer does not conform to --output-schema: ${check.errors}`;
  output.stderr(`error: ${message}\n`);
  return { exitCode: ExitCode.runtime, error: { type: 'output-schema', message } };
}

class TextPrinter implements AskPrinter {
  /** `whole`: the answer is printed only once checked (`--output-schema`), not streamed. */
  constructor(
    private readonly output: Output,
    private readonly whole: boolean,
  ) {}

  start(): void {}

  event(event: TurnEvent): void {
    if (event.type === 'assistant-delta' && !this.whole) this.output.stdoutRaw(event.text);
  }

  finish(summary: AskSummary, end: AskEnd): void {
    if (end.exitCode !== 0) return;
    if (this.whole) this.output.stdout(summary.answer);
    else this.output.stdoutRaw('\n');
  }

  failedToStart(): void {}
}

class JsonPrinter implements AskPrinter {
  constructor(
    private readonly output: Output,
    /** Compact by default (a script reads it); `--pretty` indents it for a person. */
    private readonly indent: number,
  ) {}

  start(): void {}

  event(): void {}

  finish(summary: AskSummary, end: AskEnd): void {
    this.output.stdout(jsonForTerminal({ ...summary, ...(end.error ? { error: end.error } : {}) }, this.indent));
  }

  /** The one object, saying why, even when the turn never began. */
  failedToStart(summary: AskSummary, end: AskEnd): void {
    this.finish(summary, end);
  }
}

/** `wholeAnswer`: `--output-schema` was given; `pretty`: `--pretty`. */
export function askPrinter(
  format: OutputFormat,
  output: Output,
  { wholeAnswer, pretty }: { wholeAnswer: boolean; pretty: boolean },
): AskPrinter {
  switch (format) {
    case 'text':
      return new TextPrinter(output, wholeAnswer);
    case 'json':
      return new JsonPrinter(output, pretty ? 2 : 0);
    case 'stream-json':
      return new StreamJsonPrinter(output.stdout, (value) => jsonForTerminal(value, 0), wholeAnswer);
  }
}
