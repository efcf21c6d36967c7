/**
 * Numbered tokens that can be recognised wherever they travel: `r<run>t<index>` words in a
 * streamed reply, found again in the wire bytes and in a terminal's output (escape sequences
 * stripped). Each index is timed once, where it is first seen.
 */
import { stripVTControlCharacters } from 'node:util';

/** Enough of the previous chunk to rejoin a token or escape sequence split between reads. */
const CARRY_CHARS = 48;

export function markerTokens(run: number, count: number): string[] {
  return Array.from({ length: count }, (_, index) => `r${run}t${String(index).padStart(4, '0')} `);
}

/** When each token of one run was first seen, in `performance.now()` milliseconds. */
export class MarkerLog {
  readonly times = new Map<number, number>();
  private readonly pattern: RegExp;

  constructor(
    readonly run: number,
    /** Called the first time each index is seen. */
    private readonly onFirstSight: (index: number) => void = () => undefined,
  ) {
    this.pattern = new RegExp(`r${run}t(\\d{4})`, 'g');
  }

  /** Records the tokens in `text`, seen at `at`. */
  record(text: string, at: number): void {
    for (const match of stripVTControlCharacters(text).matchAll(this.pattern)) {
      const index = Number(match[1]);
      if (this.times.has(index)) continue;
      this.times.set(index, at);
      this.onFirstSight(index);
    }
  }
}

/** Rejoins a byte stream's chunks so no token is missed at a chunk boundary. */
export class ChunkJoiner {
  private carry = '';

  /** The text to scan for this chunk: the end of the previous one, then this one. */
  push(chunk: string): string {
    const text = this.carry + chunk;
    this.carry = text.slice(-CARRY_CHARS);
    return text;
  }
}
