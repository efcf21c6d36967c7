/**
 * Reads a child's stderr line by line: every line goes to the log, and the last few
 * are kept so a failure message can show what the server said before it died. Memory
 * stays bounded whatever the child writes, even one endless line. The secrets the
 * child was given never reach either: a server may print them (`auth failed for key …`).
 */
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { type Logger, redactSecrets } from '../shared/log.js';
import { hideValues } from './server-secrets.js';

/** Lines of a server's stderr kept for error messages. */
const TAIL_LINES = 12;
/** A single stderr line longer than this is cut: a flood must not fill memory or the log. */
const MAX_LINE_CHARS = 2_000;

/**
 * What a server said, fit for the log and an error message: the secrets it was given and
 * token shapes hidden first, then cut, so a secret that straddles the cut is hidden whole. Its
 * stderr and its log messages (`notifications/message`) both go through it.
 */
export function loggableLine(raw: string, secrets: readonly string[]): string {
  const line = redactSecrets(hideValues(raw, secrets));
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
}

export class StderrTail {
  private readonly lines: string[] = [];
  /** The line being received: at most `holdChars` characters are held, the rest is dropped. */
  private partial = '';

  /**
   * `secrets`: the values this child was given (see server-secrets.ts), hidden from every line;
   * looked up per line, as some are learned while it runs (an OAuth token, a form's password).
   */
  constructor(
    private readonly log: Logger,
    private readonly secrets: () => readonly string[] = () => [],
  ) {}

  /**
   * Why more than MAX_LINE_CHARS + 1: a secret that starts just before the cut is held whole, so
   * it is hidden whole; cut first, its first characters would be shown.
   */
  private holdChars(): number {
    return MAX_LINE_CHARS + 1 + Math.max(0, ...this.secrets().map((secret) => secret.length));
  }

  attach(stream: Readable): void {
    const decoder = new StringDecoder('utf8');
    stream.on('data', (chunk: Buffer) => this.receive(decoder.write(chunk)));
    stream.on('end', () => {
      this.receive(decoder.end());
      if (this.partial !== '') this.push(this.partial);
      this.partial = '';
    });
  }

  private receive(text: string): void {
    const parts = text.split('\n');
    const last = parts.pop() ?? '';
    for (const part of parts) {
      this.push(this.partial + part);
      this.partial = '';
    }
    // Keeps enough to know the line was cut (and to hide a secret across the cut), without holding an endless line.
    const holdChars = this.holdChars();
    if (this.partial.length < holdChars) this.partial = (this.partial + last).slice(0, holdChars);
  }

  private push(raw: string): void {
    // Security: the child's secrets are hidden before the line is cut, logged or kept.
    const capped = loggableLine(raw.endsWith('\r') ? raw.slice(0, -1) : raw, this.secrets());
    this.log.info({ stream: 'stderr' }, capped);
    this.lines.push(capped);
    if (this.lines.length > TAIL_LINES) this.lines.shift();
  }

  text(): string {
    return this.lines.join('\n');
  }
}
