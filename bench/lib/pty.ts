/**
 * A program in a pseudo-terminal, through util-linux `script`: it sees a real terminal of
 * the given size; we type into it and read what it draws, as a byte stream and timed on
 * arrival (no screen polling, which would add its own delay).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';
import { until } from './harness.js';
import { childPids } from './processes.js';

export interface PtyOptions {
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
}

/** Output kept for `waitFor`; older text is dropped so a long session stays small. */
const KEPT_CHARS = 1 << 20;

const shellQuote = (word: string): string => `'${word.replaceAll("'", "'\\''")}'`;

/** Sessions still running: ended if the benchmark itself dies, so no REPL outlives it. */
const live = new Set<ChildProcessWithoutNullStreams>();
process.on('exit', () => {
  for (const script of live) script.kill('SIGTERM');
});

export class PtySession {
  private kept = '';
  /** Characters of (stripped) output dropped from `kept` so far. */
  private dropped = 0;
  private readonly listeners = new Set<(text: string, at: number) => void>();
  private exited = false;

  private constructor(private readonly script: ChildProcessWithoutNullStreams) {
    script.stdout.on('data', (bytes: Buffer) => {
      const at = performance.now();
      const text = bytes.toString('utf8');
      for (const listener of this.listeners) listener(text, at);
      this.keep(stripVTControlCharacters(text));
    });
    // Keys typed while the program quits (Ctrl+D until it has gone) meet a closed pipe: nothing is left to read them.
    script.stdin.on('error', () => undefined);
    live.add(script);
    script.on('exit', () => {
      this.exited = true;
      live.delete(script);
    });
  }

  static start(argv: string[], options: PtyOptions): PtySession {
    // `exec` makes the program the direct child of `script`, so its pid is easy to find.
    const command = `stty cols ${options.cols} rows ${options.rows} && exec ${argv.map(shellQuote).join(' ')}`;
    const script = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: options.cwd,
      env: { ...options.env, SHELL: '/bin/sh' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    return new PtySession(script);
  }

  private keep(text: string): void {
    this.kept += text;
    if (this.kept.length > KEPT_CHARS) {
      const cut = this.kept.length - KEPT_CHARS / 2;
      this.kept = this.kept.slice(cut);
      this.dropped += cut;
    }
  }

  /** Sees every output chunk as it arrives, with its arrival time. */
  onOutput(listener: (text: string, at: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A position in the output, for `waitFor` to search only what comes after it. */
  mark(): number {
    return this.dropped + this.kept.length;
  }

  async waitFor(pattern: RegExp, since = 0, timeoutMs = 30_000): Promise<void> {
    await until(
      `${pattern} on the terminal`,
      () => pattern.test(this.kept.slice(Math.max(0, since - this.dropped))),
      timeoutMs,
    );
  }

  type(keys: string): void {
    if (!this.exited) this.script.stdin.write(keys);
  }

  /** The program's pid (the child `script` started). */
  async programPid(): Promise<number> {
    let pid: number | undefined;
    await until('the program under script', () => (pid = childPids(this.script.pid ?? -1)[0]) !== undefined);
    return pid as number;
  }

  get hasExited(): boolean {
    return this.exited;
  }

  /** Waits for the program to end by itself, or ends it: `script` exits on SIGTERM and the program gets the terminal's hang-up. */
  async close(timeoutMs = 10_000): Promise<void> {
    if (this.exited) return;
    try {
      await until('the program to exit', () => this.exited, timeoutMs);
    } catch {
      this.script.kill('SIGTERM');
      await until('script to exit after SIGTERM', () => this.exited, timeoutMs);
    }
  }
}
