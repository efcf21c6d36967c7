/**
 * Scrollback as a terminal receives it: Ink in its normal (non-debug) mode, every byte it
 * writes recorded. Committed items are written once by `<Static>`, which is then given only
 * what it has not written (the REPL lets the rest go); `clear` starts afresh and Ink redraws
 * the status bar and input line below the cleared screen.
 */
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { render, type Instance } from 'ink';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../src/ui/App.js';
import { ChatSession } from '../../src/session/chat-session.js';
import { SessionKeeper } from '../../src/state/session-keeper.js';
import { SessionStore } from '../../src/state/session-store.js';
import { KEY, testRuntime, TestLlm, TestToolHost, useTool } from './render-app.js';

/** How many items each render handed `<Static>`: Ink's own component, counted on its way in. */
const staticSizes: number[] = [];
vi.mock('ink', async (importOriginal) => {
  const ink = await importOriginal<typeof import('ink')>();
  const Static: typeof ink.Static = (props) => {
    staticSizes.push(props.items.length);
    return ink.Static(props);
  };
  return { ...ink, Static };
});

/** Ink writes only `<Static>` output while a CI variable is set (its is-in-ci check), so live redraws are not seen there. */
const INK_IN_CI = ['CI', 'CONTINUOUS_INTEGRATION'].some(
  (key) => key in process.env && !['0', 'false'].includes(process.env[key] ?? ''),
);
const CLEAR_SCREEN = '\u001b[2J';
const WAIT = { timeout: 30_000, interval: 10 };

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

function start(llm: TestLlm, keeper?: SessionKeeper) {
  const stdout = new TerminalOut();
  const stdin = new TerminalIn();
  // No message bound: a long chat here is about the screen, not about what the model is sent.
  const session = new ChatSession(testRuntime({}, {}), new TestToolHost(), llm, { keeper });
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

  it('a long chat: <Static> is handed only what it has not written, each item is written once, and the session keeps all', async () => {
    const TURNS = 40;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-static-'));
    try {
      const store = new SessionStore(dir);
      const llm = new TestLlm(Array.from({ length: TURNS }, (_, n) => `Answer number ${n}.`));
      const term = start(llm, new SessionKeeper(store, 'long'));
      await term.ready();
      const saved = vi.spyOn(term.session, 'saveTurn');
      for (let n = 0; n < TURNS; n++) {
        term.send(`Question ${n}`);
        await vi.waitFor(() => expect(saved).toHaveBeenCalledTimes(n + 1), WAIT);
      }
      await saved.mock.results.at(-1)?.value;
      const output = term.output();
      for (let n = 0; n < TURNS; n++)
        expect(count(output, `Answer number ${n}.`), `answer ${n}`).toBeGreaterThanOrEqual(1);
      // Each user line is committed once (a reply is also drawn live before it is committed).
      for (let n = 0; n < TURNS; n++) expect(count(output, `Question ${n}\n`)).toBe(1);
      // A turn adds its line and its answer, and the frames after them let both go.
      expect(Math.max(...staticSizes.slice(-TURNS * 2))).toBeLessThanOrEqual(2);
      const screen = store.load('long').screen;
      expect(screen.filter((item) => item.type === 'user')).toHaveLength(TURNS);
      expect(screen.at(-1)).toEqual({ type: 'assistant', text: `Answer number ${TURNS - 1}.` });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
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
