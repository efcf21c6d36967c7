/**
 * The REPL in an 80×24 terminal (tmux, the built binary, the fake Ollama): the status bar on one
 * line, a reply's table wider than the terminal drawn within it with every border whole, and a
 * long code line wrapped inside its block.
 */
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { SCREEN_WAIT, useReplSession } from '../helpers/repl-session.js';
import { REPO_ROOT } from '../helpers/server-configs.js';
import { TmuxPane } from '../helpers/tmux.js';

const COLUMNS = 80;

const WIDE_TABLE = [
  '| Server | What it does | Tools |',
  '|:--|:--|--:|',
  '| filesystem | Reads, writes and searches files under the allowed roots, refusing any path outside them | 14 |',
  '| everything | Exercises every feature of the protocol: prompts, resources, sampling and tasks | 11 |',
  '',
  '```',
  'if (ok) {',
  '    return computeSomethingVeryLongNamed(argumentNumberOne, argumentNumberTwo, argumentNumberThree);',
  '}',
  '```',
].join('\n');

describe.skipIf(!TmuxPane.available())('the REPL at 80×24', () => {
  const repl = useReplSession({
    width: COLUMNS,
    height: 24,
    config: {
      mcpServers: {
        calculator: { command: process.execPath, args: [path.join(REPO_ROOT, 'dist/servers/calculator/main.js')] },
      },
    },
  });

  it('shows a table wider than the terminal within it, borders whole, and code wrapped inside its block', async () => {
    await repl.shows('ready');
    repl.ollama.script(WIDE_TABLE);
    repl.pane.type('Which servers are there?', 'Enter');
    // The whole reply committed, and the turn over: the status bar says ready again.
    await vi.waitFor(() => expect(repl.pane.screen()).toMatch(/argumentNumberThree\);[\s\S]*ready/), SCREEN_WAIT);
    const lines = repl.pane.screen().split('\n');
    for (const line of lines) expect(Array.from(line.trimEnd()).length).toBeLessThanOrEqual(COLUMNS);
    const table = lines.filter((line) => /^[┌│├└]/.test(line)).map((line) => line.trimEnd());
    expect(table.length).toBeGreaterThan(6);
    for (const line of table) {
      expect(line).toMatch(/^[┌│├└].*[┐│┤┘]$/);
      expect(Array.from(line).length).toBe(Array.from(table[0] ?? '').length);
    }
    // The code line goes on under its own indentation, not at column 0.
    const cut = lines.findIndex((line) => line.includes('return computeSomethingVeryLongNamed'));
    expect(lines[cut + 1]).toMatch(/^ {6}.*argumentNumberThree\);$/);
    // The status bar is one line: the model, Ollama, the server and ready.
    expect(lines.find((line) => line.includes('ready'))).toMatch(/llama3\.2 {2}ollama ✓ .*calculator ✓ 1 {2}ready/);
  });
});
