/**
 * The one place commands write to the terminal: results to stdout, notices to stderr.
 * Passed in rather than imported, so tests can capture it. Nothing written here can
 * drive the terminal: server and model text is stripped of escapes and controls.
 */
import { sanitizeForTerminal } from '../shared/terminal-text.js';

export interface Output {
  /** A whole result: a newline is added when missing. */
  stdout: (text: string) => void;
  /** Streamed text, written as given (no newline added). */
  stdoutRaw: (text: string) => void;
  /** A warning line on stderr (a server that is disabled or failed). */
  warn: (line: string) => void;
  /** Is stderr a terminal (progress lines are shown only then)? */
  stderrIsTty: boolean;
  stderr: (text: string) => void;
  /** The width listings wrap to: the terminal's, 80 when stdout is not one. */
  columns?: number;
}

// Security: a tool result, a server's stderr tail or a model's answer may carry escape sequences,
// so everything below goes through sanitizeForTerminal.
function wholeResult(text: string): string {
  const clean = sanitizeForTerminal(text);
  return clean.endsWith('\n') ? clean : `${clean}\n`;
}

/** What listings wrap to when stdout is no terminal (a pipe, a file): the classic terminal's width. */
export const LISTING_WIDTH = 80;

export const processOutput: Output = {
  stdout: (text) => void process.stdout.write(wholeResult(text)),
  stdoutRaw: (text) => void process.stdout.write(sanitizeForTerminal(text)),
  warn: (line) => void process.stderr.write(`warning: ${sanitizeForTerminal(line)}\n`),
  stderr: (text) => void process.stderr.write(sanitizeForTerminal(text)),
  stderrIsTty: process.stderr.isTTY === true,
  get columns() {
    return process.stdout.columns || LISTING_WIDTH;
  },
};
