/**
 * A call the detector withholds, in the REPL as a person sees it (tmux, the built binary, the fake
 * Ollama): drafted in the reasoning Ollama sends apart, or left unfinished. Nothing runs; the
 * model's next request ends with one line naming the call, why it did not run and how to make it
 * run; the screen says it too, dim. A call written where it belongs then runs as usual.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { SCREEN_WAIT, useReplSession } from '../helpers/repl-session.js';
import { REPO_ROOT } from '../helpers/server-configs.js';
import { TmuxPane } from '../helpers/tmux.js';
import { textCall } from '../helpers/turns.js';

const CALCULATOR = { command: process.execPath, args: [path.join(REPO_ROOT, 'dist/servers/calculator/main.js')] };
const SIX_TIMES_SEVEN = textCall('calculator', 'evaluate', { expression: '6*7' });
const MODEL = { name: 'deepseek-r1', capabilities: ['completion', 'thinking'] };

describe.skipIf(!TmuxPane.available())('a withheld call in the REPL', () => {
  const repl = useReplSession({
    models: [MODEL],
    config: { ollama: { model: MODEL.name, num_ctx: 4096 }, mcpServers: { calculator: CALCULATOR } },
  });
  const sent = (back: number): string => JSON.stringify(repl.ollama.chatRequests.at(-back)?.messages);

  it('a call drafted in the reasoning alone: not run, the model and the user are told, then it runs', async () => {
    await repl.shows('ready');
    const recording = path.join(repl.workDir, 'screen-bytes.txt');
    repl.pane.recordOutput(recording);
    repl.ollama.script(
      { thinking: `I will send ${SIX_TIMES_SEVEN}` },
      { text: SIX_TIMES_SEVEN },
      { text: 'It is 42.' },
    );
    repl.pane.type('What is 6*7?', 'Enter');
    await repl.shows('It is 42.');
    const correction = repl.ollama.chatRequests.at(-2)?.messages.at(-1)?.content;
    expect(correction).toMatch(
      /^The call to evaluate was not run: it was inside your reasoning\b[^\n]*write it in your reply/,
    );
    expect(repl.pane.screen()).toContain('evaluate was not run: the model wrote the call inside its reasoning');
    // Dim (SGR 2), as the other notices.
    await vi.waitFor(
      () => expect(fs.readFileSync(recording, 'utf8')).toMatch(/\u001b\[2m[^\u001b]*evaluate was not run/),
      SCREEN_WAIT,
    );
    // Nothing ran from the draft: the first result the model sees follows the call it wrote in its reply.
    expect(sent(2)).not.toContain('42');
    expect(sent(1)).toContain('42');
  });

  it('an unfinished call: not run, and the model is asked for the whole call in one line', async () => {
    repl.ollama.script({ text: SIX_TIMES_SEVEN.slice(0, -8) }, { text: 'Sorry, I will stop here.' });
    repl.pane.type('And 6*7 again?', 'Enter');
    await repl.shows('Sorry, I will stop here.');
    const correction = repl.ollama.chatRequests.at(-1)?.messages.at(-1);
    expect(correction?.content).toMatch(
      /^The call to evaluate was not run: your reply ended before the call was complete; [^\n]*$/,
    );
    expect(repl.pane.screen()).toContain('evaluate was not run: the reply ended before the call was complete');
    expect(correction?.content).not.toContain('42');
  });
});
