/**
 * Scrollback as a terminal receives it: Ink in its normal (non-debug) mode, every byte it
 * writes recorded. Committed items are written once by `<Static>`; `clear` starts afresh
 * and Ink redraws the status bar and input line below the cleared screen.
 */
import { EventEmitter } from 'node:events';
import { stripVTControlCharacters } from 'node:util';
import { render, type Instance } from 'ink';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../src/ui/App.js';
import { ChatSession } from '../../src/session/chat-session.js';
import { KEY, testRuntime, TestLlm, TestToolHost, useTool } from './render-app.js';

/** Ink writes only `<Static>` output while a CI variable is set (its is-in-ci check), so live redraws are not seen there. */
const INK_IN_CI = ['CI', 'CONTINUOUS_INTEGRATION'].some(
  (key) => key in process.env && !['0', 'false'].includes(process.env[key] ?? ''),
);
const CLEAR_SCREEN = '\u001b[2J';
const WAIT = { timeout: 10_000, interval: 10 };

class TerminalOut extends EventEmitter {
  readonly isTTY = true;
  readonly columns = 100;
  readonly rows = 40;
  readonly writes: string[] = [];
  write = (chunk: string): boolean => {
    this.writes.push(chunk);
    return true;
  };
}

class TerminalIn extends EventEmitter {
  readonly isTTY = true;
  private pending: string[] = [];
  write(data: string): void {
    this.pending.push(data);
    this.emit('readable');
  }
  read = (): string | null => this.pending.shift() ?? null;
  setEncoding(): void {}
  setRawMode(): void {}
  ref(): void {}
  unref(): void {}
}

let instance: Instance | undefined;
afterEach(() => instance?.unmount());

function start(llm: TestLlm) {
  const stdout = new TerminalOut();
  const stdin = new TerminalIn();
  const session = new ChatSession(testRuntime(), new TestToolHost(), llm);
  instance = render(<App session={session} />, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: new TerminalOut() as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  const output = (): string => stripVTControlCharacters(stdout.writes.join(''));
  return {
    stdout,
    session,
    output,
    ready: () => vi.waitFor(() => expect(stdin.listenerCount('readable')).toBeGreaterThan(0), WAIT),
    send: (text: string) => stdin.write(text + KEY.enter),
    press: (key: string) => stdin.write(key),
    waitForOutput: (pattern: RegExp) => vi.waitFor(() => expect(output()).toMatch(pattern), WAIT),
  };
}

const count = (text: string, part: string): number => text.split(part).length - 1;

describe('scrollback', () => {
  it('writes each committed item once, however often the input line and the reply re-render', async () => {
    const llm = new TestLlm([useTool('calculator', 'evaluate', { expression: '6*7' }), 'It is 42.']);
    const term = start(llm);
    await term.ready();
    const saved = vi.spyOn(term.session, 'saveTurn');
    term.send('What is 6*7?');
    await term.waitForOutput(/It is 42\./);
    // The turn is over (its reply committed) once the session is saved; a frame drawn after that has written it.
    await vi.waitFor(() => expect(saved).toHaveBeenCalled(), WAIT);
    for (const key of 'typing more') term.press(key);
    if (!INK_IN_CI) await term.waitForOutput(/› typing more/);
    // The input line drawn again and again: nothing committed is written a second time.
    const mark = term.stdout.writes.length;
    for (const key of ' and more') term.press(key);
    if (!INK_IN_CI) await term.waitForOutput(/› typing more and more/);
    const later = stripVTControlCharacters(term.stdout.writes.slice(mark).join(''));
    expect(count(later, 'It is 42.')).toBe(0);
    const output = term.output();
    expect(count(output, '✓ calculator.evaluate(expression="6*7") 1 ms → 42')).toBe(1);
    // A streamed reply is also drawn live (then erased) before it is committed; Ink in CI mode writes only what is committed.
    if (INK_IN_CI) expect(count(output, 'It is 42.')).toBe(1);
    else expect(count(output, 'It is 42.')).toBeGreaterThanOrEqual(1);
    expect(count(output, 'mcp-chat · model scripted-model')).toBe(1);
  });

  it('clear starts the screen afresh, without earlier items, and redraws the status bar and input line', async () => {
    const llm = new TestLlm(['Remembered banana.']);
    const term = start(llm);
    await term.ready();
    term.send('Remember banana');
    await term.waitForOutput(/Remembered banana\./);
    term.send('clear');
    await vi.waitFor(() => expect(term.stdout.writes.join('')).toContain(CLEAR_SCREEN), WAIT);
    if (!INK_IN_CI) {
      await vi.waitFor(() => expect(afterClear(term.stdout.writes)).toMatch(/ready\n›/), WAIT);
    }
    term.send('help');
    await vi.waitFor(() => expect(afterClear(term.stdout.writes)).toMatch(/Commands \(bare or with a slash\)/), WAIT);
    expect(afterClear(term.stdout.writes)).not.toMatch(/banana/);
  });
});

/** What was written since the screen was last cleared. */
function afterClear(writes: string[]): string {
  const all = writes.join('');
  return stripVTControlCharacters(all.slice(all.lastIndexOf(CLEAR_SCREEN)));
}
