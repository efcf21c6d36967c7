/**
 * What the model remembers in the REPL, as a person uses it in a 120×35 terminal (tmux, the built
 * binary, the fake Ollama): a three-turn tool conversation still carries its first turn at the end
 * and the screen shows all three, a turn cancelled mid-reply stays in the conversation, so the next
 * message can refer to it, and a table as wide as the terminal allows is drawn whole.
 */
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { SCREEN_WAIT, useReplSession } from '../helpers/repl-session.js';
import { REPO_ROOT } from '../helpers/server-configs.js';
import { TmuxPane } from '../helpers/tmux.js';

const COLUMNS = 120;

/** A reply's table just under 120 columns wide once drawn: it fits, so no cell needs to wrap. */
const WIDE_TABLE = [
  '| Server | Transport | What it does | Tools |',
  '|:--|:--|:--|--:|',
  '| filesystem | stdio | Reads, writes and searches the files under the allowed roots, nothing outside | 14 |',
  '| everything | Streamable HTTP | Exercises the protocol: prompts, resources, sampling, tasks | 11 |',
].join('\n');

const textCall = (expression: string): string =>
  JSON.stringify({ action: 'use_tool', server: 'calculator', tool: 'evaluate', arguments: { expression } });

describe.skipIf(!TmuxPane.available())('the conversation the model is sent', () => {
  const repl = useReplSession({
    width: COLUMNS,
    height: 35,
    config: {
      mcpServers: {
        calculator: { command: process.execPath, args: [path.join(REPO_ROOT, 'dist/servers/calculator/main.js')] },
      },
    },
  });
  const sent = (index: number): string => JSON.stringify(repl.ollama.chatRequests[index]?.messages);

  it('still carries the first turn at the end of a three-turn tool conversation', async () => {
    await repl.shows('ready');
    const turns = [
      ['My locker code is PLUM-4417. What is 6*7?', '6*7', 'It is 42.'],
      ['And 12*12?', '12*12', 'It is 144.'],
      ['And 9*9? Then tell me my locker code.', '9*9', 'It is 81, and your code is PLUM-4417.'],
    ] as const;
    for (const [question, expression, answer] of turns) {
      repl.ollama.script(textCall(expression), answer);
      repl.pane.type(question, 'Enter');
      await repl.shows(answer);
    }
    expect(repl.ollama.chatRequests).toHaveLength(6);
    // Both requests of the third turn: the one that asks, and the one with its tool's result.
    for (const index of [4, 5]) {
      expect(sent(index)).toContain('PLUM-4417. What is 6*7?');
      expect(sent(index)).toContain('It is 144.');
    }
    expect(repl.pane.screen()).not.toContain('Compacted');
    // All three exchanges are on the terminal itself, not only in its scrollback.
    const visible = repl.pane.visible();
    for (const [question, , answer] of turns) {
      expect(visible).toContain(`› ${question}`);
      expect(visible).toContain(answer);
    }
  });

  it('keeps a cancelled turn, its partial answer marked as interrupted, for the next request', async () => {
    repl.ollama.script({ text: 'The capital of Australia is Can', hang: true });
    repl.pane.type('What is the capital of Australia?', 'Enter');
    await repl.shows('The capital of Australia is Can');
    repl.pane.type('', 'Escape');
    await repl.shows('Cancelled.');
    repl.ollama.script('As I was saying: Canberra.');
    repl.pane.type('Go on, as you were saying.', 'Enter');
    await repl.shows('As I was saying: Canberra.');
    const last = repl.ollama.chatRequests.at(-1)?.messages ?? [];
    const roles = last.slice(-3).map((message) => message.role);
    expect(roles).toEqual(['user', 'assistant', 'user']);
    expect(last.at(-3)?.content).toBe('What is the capital of Australia?');
    expect(last.at(-2)?.content).toMatch(/^The capital of Australia is Can\n\n\[.*interrupted.*\]$/);
    expect(repl.pane.screen()).toContain('The capital of Australia is Can');
  });

  it('draws a table as wide as the terminal allows within it, every border whole and no cell wrapped', async () => {
    repl.ollama.script(WIDE_TABLE);
    repl.pane.type('Which servers are there?', 'Enter');
    await repl.shows('Exercises the protocol: prompts, resources, sampling, tasks');
    await vi.waitFor(() => expect(repl.pane.visible()).toMatch(/└.*┘[\s\S]*ready/), SCREEN_WAIT);
    const lines = repl.pane.visible().split('\n');
    for (const line of lines) expect(Array.from(line.trimEnd()).length).toBeLessThanOrEqual(COLUMNS);
    const table = lines.filter((line) => /^[┌│├└]/.test(line)).map((line) => line.trimEnd());
    // Top, head, a rule under it and between the rows, bottom: one line each, as nothing had to wrap.
    expect(table).toHaveLength(7);
    for (const line of table) {
      expect(line).toMatch(/^[┌│├└].*[┐│┤┘]$/);
      expect(Array.from(line).length).toBe(Array.from(table[0] ?? '').length);
    }
    expect(Array.from(table[0] ?? '').length).toBeGreaterThan(100);
    expect(table[3]).toContain('Reads, writes and searches the files under the allowed roots, nothing outside');
    expect(table[5]).toMatch(/│ everything │ Streamable HTTP │ Exercises the protocol: .* │ {4}11 │$/);
  });
});
