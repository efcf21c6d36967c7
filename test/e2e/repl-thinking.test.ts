/**
 * A reasoning model in the REPL, as a person sees it (tmux, the built binary, the fake Ollama):
 * the reasoning streams dim and folds to one line once the answer starts, `debug` shows it
 * whole, it never goes back to the model; `/stats` and the status bar say what the turns cost;
 * `/think` switches reasoning for the next request.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { SCREEN_WAIT, useReplSession } from '../helpers/repl-session.js';
import { REPO_ROOT } from '../helpers/server-configs.js';
import { TmuxPane } from '../helpers/tmux.js';

const textCall = (expression: string): string =>
  JSON.stringify({ action: 'use_tool', server: 'calculator', tool: 'evaluate', arguments: { expression } });

describe.skipIf(!TmuxPane.available())('a reasoning model in the REPL', () => {
  const repl = useReplSession({
    models: [{ name: 'qwen3', capabilities: ['completion', 'thinking'] }],
    config: {
      ollama: { model: 'qwen3', num_ctx: 8192 },
      mcpServers: {
        calculator: { command: process.execPath, args: [path.join(REPO_ROOT, 'dist/servers/calculator/main.js')] },
      },
    },
  });
  const lastRequest = () => repl.ollama.chatRequests.at(-1);

  it('streams the reasoning dim while it arrives', async () => {
    await repl.shows('ready');
    const recording = path.join(repl.workDir, 'screen-bytes.txt');
    repl.pane.recordOutput(recording);
    repl.ollama.script({ thinking: 'Weighing the clouds carefully.', hang: true });
    repl.pane.type('Should I bring an umbrella?', 'Enter');
    await repl.shows('Weighing the clouds carefully.');
    expect(repl.pane.screen()).toContain('reasoning… (Esc to cancel)');
    // Dim (SGR 2) is switched on before the reasoning is written.
    await vi.waitFor(
      () => expect(fs.readFileSync(recording, 'utf8')).toMatch(/\u001b\[2m[^\u001b]*Weighing the clouds/),
      SCREEN_WAIT,
    );
    repl.pane.type('', 'Escape');
    await repl.shows('Cancelled.');
  });

  it('folds the reasoning to one line once the answer starts', async () => {
    repl.ollama.script({ thinking: 'Rain is likely this afternoon.', text: 'Yes, bring one.', ...counts(200, 10) });
    repl.pane.type('And today?', 'Enter');
    await repl.shows('Yes, bring one.');
    const screen = repl.pane.screen();
    expect(screen).toMatch(/thought for \d+\.\d s\n(.*\n)*.*Yes, bring one\./);
    expect(screen).not.toContain('Rain is likely this afternoon.');
    expect(screen).not.toContain('Weighing the clouds carefully.');
  });

  it('debug shows the reasoning whole', async () => {
    repl.pane.type('debug', 'Enter');
    await repl.shows('Debug on');
    repl.ollama.script({ thinking: 'The forecast says sun.', text: 'No umbrella tomorrow.', ...counts(300, 20) });
    repl.pane.type('And tomorrow?', 'Enter');
    await repl.shows('No umbrella tomorrow.');
    expect(repl.pane.screen()).toMatch(/\[debug\] thought for \d+\.\d s:\s+The forecast says sun\./);
    repl.pane.type('debug', 'Enter');
    await repl.shows('Debug off');
  });

  it('never sends the reasoning back to the model, even when a call follows it', async () => {
    repl.ollama.script(
      { thinking: 'PLAN-7: multiply first.', text: textCall('6*7'), ...counts(400, 30) },
      { text: 'It is 42.', ...counts(500, 40) },
    );
    repl.pane.type('What is 6*7?', 'Enter');
    await repl.shows('It is 42.');
    const sent = JSON.stringify(lastRequest()?.messages);
    expect(sent).toContain('42');
    expect(sent).not.toContain('PLAN-7');
    expect(sent).not.toContain('"thinking"');
  });

  it("/stats gives the session's figures from Ollama's counts; the status bar how full the context is", async () => {
    // The last request: 500 prompt tokens and 40 generated, of num_ctx 8192.
    expect(repl.pane.screen()).toContain('540/8,192 ctx (7%)');
    repl.pane.type('/stats', 'Enter');
    await repl.shows('Session: 3 turns, 4 model requests');
    const screen = repl.pane.screen();
    // The fake spends 20 ms per generated token.
    expect(screen).toContain('Tokens: 1,400 in, 100 out · 50 tokens/s');
    expect(screen).toMatch(/Time: \d+\.\d s in the model \(\d+\.\d s loading\), \d+\.\d s in tools/);
    expect(screen).toContain('Tool calls: 1 (calculator 1)');
  });

  it('/think switches reasoning for the next request', async () => {
    expect(repl.ollama.chatRequests.every((request) => request.think === undefined)).toBe(true);
    repl.pane.type('/think', 'Enter');
    await repl.shows('Thinking off.');
    repl.ollama.script('Off it is.');
    repl.pane.type('Quick one', 'Enter');
    await repl.shows('Off it is.');
    expect(lastRequest()?.think).toBe(false);
    repl.pane.type('/think high', 'Enter');
    await repl.shows('Thinking high: the reasoning streams dim');
    repl.ollama.script({ thinking: 'Deeply.', text: 'High it is.' });
    repl.pane.type('Hard one', 'Enter');
    await repl.shows('High it is.');
    expect(lastRequest()?.think).toBe('high');
  });
});

function counts(promptEvalCount: number, evalCount: number): { promptEvalCount: number; evalCount: number } {
  return { promptEvalCount, evalCount };
}
