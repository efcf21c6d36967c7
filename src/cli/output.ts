/**
 * The one place commands write to the terminal: results to stdout, notices to stderr.
 * Passed in rather than imported, so tests can capture it.
 */

export interface Output {
  /** A whole result: a newline is added when missing. */
  stdout: (text: string) => void;
  /** Streamed text, written exactly as given. */
  stdoutRaw: (text: string) => void;
  /** A warning line on stderr (a server that is disabled or failed). */
  warn: (line: string) => void;
  /** Is stderr a terminal (progress lines are shown only then)? */
  stderrIsTty: boolean;
  stderr: (text: string) => void;
}

export const processOutput: Output = {
  stdout: (text) => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  stdoutRaw: (text) => void process.stdout.write(text),
  warn: (line) => void process.stderr.write(`warning: ${line}\n`),
  stderr: (text) => void process.stderr.write(text),
  stderrIsTty: process.stderr.isTTY === true,
};
