/**
 * What the model remembers in the REPL, as a person uses it (tmux, the built binary, the fake
 * Ollama): a three-turn tool conversation still carries its first turn at the end, and a turn
 * cancelled mid-reply stays in the conversation, so the next message can refer to it.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useReplSession } from '../helpers/repl-session.js';
import { REPO_ROOT } from '../helpers/server-configs.js';
import { TmuxPane } from '../helpers/tmux.js';

const textCall = (expression: string): string =>
  JSON.stringify({ action: 'use_tool', server: 'calculator', tool: 'evaluate', arguments: { expression } });

describe.skipIf(!TmuxPane.available())('the conversation the model is sent', () => {
  const repl = useReplSession({
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
});
