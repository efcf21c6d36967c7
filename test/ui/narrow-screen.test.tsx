/**
 * The REPL at 80 columns, in ink-testing-library's terminal set to that width: every line of the
 * screen within it, the status bar on one line, a wide table drawn whole, and a streaming reply
 * that says it is responding and that Esc cancels.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { KEY, startApp, TestLlm, TestToolHost } from './render-app.js';
import { cleanupAtWidth } from './terminal-width.js';

const COLUMNS = 80;

afterEach(() => {
  cleanupAtWidth();
  cleanup();
});

/** Servers enough that their badges, all whole, take more than 80 columns. */
const MORE_SERVERS = ['filesystem', 'everything', 'sequential-thinking', 'memory'].map((name) => ({
  name,
  kind: 'stdio' as const,
  state: 'ready' as const,
  toolCount: 7,
}));

const WIDE_TABLE = [
  '| Server | What it does | Tools |',
  '|:--|:--|--:|',
  '| filesystem | Reads, writes and searches files under the allowed roots, refusing any path outside them | 14 |',
  '| everything | Exercises every feature of the protocol: prompts, resources, sampling and tasks | 11 |',
].join('\n');

const widthOf = (line: string): number => Array.from(line).length;

function expectWithin(screen: string): void {
  for (const line of screen.split('\n')) expect(widthOf(line), line).toBeLessThanOrEqual(COLUMNS);
}

/** The status bar: the line above the input line's. */
const statusLine = (screen: string): string => {
  const lines = screen.split('\n');
  const prompt = lines.findLastIndex((line) => line.startsWith('›'));
  return lines[prompt - 1] ?? '';
};

describe('the REPL at 80 columns', () => {
  it('the status bar fits one line with every server, shortened as needed, and says ready', async () => {
    const app = await startApp({ host: new TestToolHost(MORE_SERVERS), columns: COLUMNS });
    await app.waitForScreen(/ollama ✓.*ready/);
    const screen = app.screen();
    expectWithin(screen);
    expect(statusLine(screen)).toMatch(/^scripted-model {2}ollama ✓ {2}7 servers ✓ 33 {2}ready$/);
  });

  it('a server that is not fine keeps its name in the shortened bar', async () => {
    const broken = { name: 'broken', kind: 'stdio' as const, state: 'failed' as const, toolCount: 0 };
    const app = await startApp({ host: new TestToolHost([...MORE_SERVERS, broken]), columns: COLUMNS });
    await app.waitForScreen(/ollama ✓.*ready/);
    expect(statusLine(app.screen())).toMatch(/7 servers ✓ 33 {2}broken ✗ failed {2}ready$/);
  });

  it('while a reply streams the status bar says it is responding and that Esc cancels, then ready', async () => {
    const llm = new TestLlm([{ content: 'The first half of the answer', hang: true }]);
    const app = await startApp({ llm, columns: COLUMNS });
    app.send('Hello?');
    await app.waitForScreen(/The first half of the answer/);
    expect(statusLine(app.screen())).toMatch(/responding · Esc cancels$/);
    expect(statusLine(app.screen())).not.toContain('ready');
    app.press(KEY.esc);
    await app.waitForScreen(/Cancelled\./);
    await app.waitUntil(() => expect(statusLine(app.screen())).toMatch(/ready$/));
  });

  it('Tab with several matches lists them under the input line until the next key', async () => {
    const app = await startApp({ columns: COLUMNS });
    app.press('/s');
    await app.waitUntil(() => expect(app.inputLine()).toBe('/s'));
    app.press(KEY.tab);
    await app.waitForScreen(/^\/servers {2}\/stats {2}\/save {2}\/sessions$/m);
    expectWithin(app.screen());
    app.press('t');
    await app.waitUntil(() => expect(app.inputLine()).toBe('/st'));
    expect(app.screen()).not.toContain('/servers');
  });

  it('help and tools wrap within the screen, each long line under its text column', async () => {
    const app = await startApp({ columns: COLUMNS });
    app.send('help');
    await app.waitForScreen(/Keys:/);
    app.send('tools');
    await app.waitForScreen(/tools, about \d+ tokens/);
    const screen = app.screen();
    expectWithin(screen);
    const lines = screen.split('\n');
    const compact = lines.findIndex((line) => line.startsWith('  compact '));
    const column = (lines[compact] ?? '').indexOf('replace');
    expect(column).toBeGreaterThan(2);
    // The description goes on under itself, not at column 0.
    expect(lines[compact + 1]).toMatch(new RegExp(`^ {${column}}\\S`));
    expect(lines.find((line) => line.startsWith('  help '))?.indexOf('show this help')).toBe(column);
  });

  it('a table wider than the screen is drawn within it, every border whole', async () => {
    const llm = new TestLlm([WIDE_TABLE]);
    const app = await startApp({ llm, columns: COLUMNS });
    app.send('Which servers?');
    // The whole reply, committed: while it streams, the table is drawn with the rows come so far.
    await app.waitForScreen(/└─+┴─+┴─+┘\s+.*ready$/m);
    expect(app.screen()).toMatch(/│ +11 │/);
    const screen = app.screen();
    expectWithin(screen);
    const table = screen.split('\n').filter((line) => /^[┌│├└]/.test(line));
    expect(table.length).toBeGreaterThan(6);
    for (const line of table) {
      expect(line).toMatch(/^[┌│├└].*[┐│┤┘]$/);
      expect(widthOf(line)).toBe(widthOf(table[0] ?? ''));
    }
  });
});
