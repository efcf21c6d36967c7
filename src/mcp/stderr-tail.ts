/**
 * Reads a child's stderr line by line: every line goes to the log, and the last few
 * are kept so a failure message can show what the server said before it died.
 */
import type { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import type { Logger } from '../log.js';

/** Lines of a server's stderr kept for error messages. */
const TAIL_LINES = 12;
/** A single stderr line longer than this is cut: a flood must not fill memory or the log. */
const MAX_LINE_CHARS = 2_000;

export class StderrTail {
  private readonly lines: string[] = [];

  constructor(private readonly log: Logger) {}

  attach(stream: Readable): void {
    const reader = createInterface({ input: stream, crlfDelay: Infinity });
    reader.on('line', (line) => this.push(line));
  }

  private push(line: string): void {
    const capped = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
    this.log.info({ stream: 'stderr' }, capped);
    this.lines.push(capped);
    if (this.lines.length > TAIL_LINES) this.lines.shift();
  }

  text(): string {
    return this.lines.join('\n');
  }
}
