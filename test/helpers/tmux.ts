/**
 * Drives a real terminal: a program runs in a detached tmux pane on a private socket,
 * keys are sent as a person types them, and the screen is read back as text.
 */
import { execFileSync } from 'node:child_process';
import { expect, vi } from 'vitest';

/**
 * How long a wait on the screen may take: only a hang reaches it, on a busy machine too. Each look
 * runs tmux once, so the screen is read a few times a second, not in a loop that takes a core.
 */
export const SCREEN_WAIT = { timeout: 40_000, interval: 50 };

/** How many times `text` occurs in `screen`. */
const occurrences = (screen: string, text: string): number => screen.split(text).length - 1;

/** A tmux socket no other pane uses, in this process or another. */
const freshSocket = (): string => `mcp-chat-test-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;

export class TmuxPane {
  private socket = freshSocket();
  private readonly session = 'main';
  /** The screen as it was when keys were last typed: text on it then is not news. */
  private typedOver = '';

  static available(): boolean {
    try {
      execFileSync('tmux', ['-V'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
  }

  start(
    command: string[],
    options: { cwd: string; env: Record<string, string>; width?: number; height?: number },
  ): void {
    const envArgs = Object.entries(options.env).map(([key, value]) => `${key}=${value}`);
    // Each start has a server of its own: a server killed for a restart may still be exiting, and a
    // new session on its socket would reach it ("server exited unexpectedly").
    this.kill();
    this.socket = freshSocket();
    this.typedOver = '';
    this.tmux(
      'new-session',
      '-d',
      '-s',
      this.session,
      '-x',
      String(options.width ?? 120),
      '-y',
      String(options.height ?? 40),
      '-c',
      options.cwd,
      'env',
      '-i',
      ...envArgs,
      ...command,
    );
    // Keep the pane after the program exits, so its last screen and exit can be inspected.
    this.tmux('set-option', '-t', this.session, 'remain-on-exit', 'on');
  }

  /** Types text literally (no key-name interpretation), then any named keys such as Enter or C-c. */
  type(text: string, ...keys: string[]): void {
    this.typedOver = this.screen();
    if (text) this.tmux('send-keys', '-t', this.session, '-l', text);
    if (keys.length > 0) this.tmux('send-keys', '-t', this.session, ...keys);
  }

  /** Resizes the terminal, as a person dragging its window does: the program gets SIGWINCH. */
  resize(width: number, height: number): void {
    this.tmux('resize-window', '-t', this.session, '-x', String(width), '-y', String(height));
  }

  /** The screen and all of its scrollback. */
  screen(): string {
    return this.tmux('capture-pane', '-p', '-t', this.session, '-S', '-');
  }

  /** What the terminal shows now, its scrollback left out. */
  visible(): string {
    return this.tmux('capture-pane', '-p', '-t', this.session);
  }

  /** The screen with the lines the terminal wrapped joined again: each line break left is the program's own. */
  programLines(): string[] {
    return this.tmux('capture-pane', '-p', '-J', '-t', this.session, '-S', '-').split('\n');
  }

  /** Resolves once the screen matches `pattern`: polled, never a fixed sleep. */
  async waitForScreen(pattern: RegExp): Promise<void> {
    await vi.waitFor(() => expect(this.screen()).toMatch(pattern), SCREEN_WAIT);
  }

  /**
   * Resolves once `text` is on the screen more often than when keys were last typed: news since
   * then, never the same words left in the scrollback by an earlier step.
   */
  async waitForNew(text: string): Promise<void> {
    const before = occurrences(this.typedOver, text);
    try {
      await vi.waitFor(() => expect(occurrences(this.screen(), text)).toBeGreaterThan(before), SCREEN_WAIT);
    } catch (error) {
      // Which words never came, and the screen as it was: what a failing run needs to be understood.
      const seen = `${JSON.stringify(text)} seen ${before} times when keys were last typed`;
      throw new Error(`${seen}, no more since; the screen now:\n${this.visible()}`, { cause: error });
    }
  }

  /** The pane's title, which a program can set with OSC 0/2 escape sequences. */
  title(): string {
    return this.tmux('display-message', '-p', '-t', this.session, '#{pane_title}').trim();
  }

  /** Appends every byte the program writes from now on, escapes included, to `file`. */
  recordOutput(file: string): void {
    this.tmux('pipe-pane', '-o', '-t', this.session, `cat >> '${file}'`);
  }

  panePid(): number {
    return Number(this.tmux('display-message', '-p', '-t', this.session, '#{pane_pid}').trim());
  }

  /** True once the program in the pane has exited. */
  exited(): boolean {
    return this.tmux('display-message', '-p', '-t', this.session, '#{pane_dead}').trim() === '1';
  }

  kill(): void {
    try {
      execFileSync('tmux', ['-L', this.socket, 'kill-server'], { stdio: 'ignore' });
    } catch {
      // Already gone.
    }
  }
}
