/**
 * Ollama failing during a REPL session: the real binary in a terminal (tmux), the fake
 * Ollama playing each fault in turn. Each fault is one error line; the session, its
 * history and its servers survive, and the next turn (with a tool call) works.
 */
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { startFakeOllama, TEXT_MODEL, type FakeReplySpec } from '../fakes/fake-ollama.js';
import { SCREEN_WAIT, useReplSession } from '../helpers/repl-session.js';
import { descendants, isProcessAlive, REPO_ROOT } from '../helpers/server-configs.js';
import { TmuxPane } from '../helpers/tmux.js';
import { textCall } from '../helpers/turns.js';

interface OllamaFault {
  fault: string;
  /** Makes Ollama misbehave for the next request; returns how to make it well again. */
  arrange: () => Promise<(() => Promise<void>) | void>;
  message: (url: string) => string;
  hint?: string;
}

describe.skipIf(!TmuxPane.available())('Ollama faults during a REPL session', () => {
  const session = useReplSession({
    config: {
      // One second of silence is a timeout; a long window keeps the first turn in every request.
      ollama: { timeout: 1 },
      history: { max_messages: 60 },
      mcpServers: {
        calculator: { command: process.execPath, args: [path.join(REPO_ROOT, 'dist/servers/calculator/main.js')] },
        healthy: {
          command: process.execPath,
          args: [path.join(REPO_ROOT, 'test/fixtures/servers/scripted-server.mjs'), 'name=healthy'],
        },
      },
    },
  });
  const { pane } = session;
  let servers: number[] = [];
  const errorLines = (): string[] =>
    pane
      .screen()
      .split('\n')
      .filter((line) => line.startsWith('✗ Ollama'));
  const play = (reply: FakeReplySpec) => async (): Promise<void> => session.ollama.script(reply);

  const FAULTS: OllamaFault[] = [
    {
      fault: 'answers 500',
      arrange: play({ status: 500, error: 'llama runner process has terminated' }),
      message: (url) => `Ollama at ${url} answered HTTP 500: llama runner process has terminated`,
    },
    {
      fault: 'drops the stream half-way',
      arrange: play({ text: 'Half of this reply', dropAfterChunks: 2 }),
      message: (url) => `Ollama at ${url} failed mid-reply: the connection was lost`,
      hint: 'Check that Ollama is still running',
    },
    {
      fault: 'answers slowly, past the timeout',
      arrange: play({ text: 'Too late.', firstChunkDelayMs: 60_000 }),
      message: (url) => `Ollama at ${url} sent nothing for 1 s`,
      hint: 'raise `ollama.timeout` in the config',
    },
    {
      fault: 'streams invalid JSON',
      arrange: play({ text: 'Never readable.', garble: 'all' }),
      message: (url) => `Ollama at ${url} failed mid-reply: the stream ended before the reply was complete`,
    },
    {
      fault: 'refuses connections',
      arrange: async () => {
        const { port } = new URL(session.ollama.url);
        await session.ollama.close();
        // Ollama comes back where it was, as after `ollama serve` is started again.
        return async () => {
          session.ollama = await startFakeOllama({ models: TEXT_MODEL, port: Number(port) });
        };
      },
      message: (url) => `Ollama is not reachable at ${url} (connection refused)`,
      hint: 'Start it with `ollama serve`',
    },
  ];

  it('answers a first turn, which later turns must still carry', async () => {
    await vi.waitFor(() => expect(pane.screen()).toMatch(/calculator ✓ 1.*healthy ✓ \d+.*ready/s), SCREEN_WAIT);
    // A calculation, so that the calculator's evaluator (started by its first call) is among the processes kept.
    session.ollama.script(textCall('calculator', 'evaluate', { expression: '40+2' }), 'I will remember the number 42.');
    pane.type('Remember 42', 'Enter');
    await session.shows('I will remember the number 42.');
    servers = descendants(pane.panePid());
    expect(servers.length).toBeGreaterThanOrEqual(3);
  });

  describe.each(FAULTS)('when Ollama $fault', ({ fault, arrange, message, hint }) => {
    it('shows one error line, keeps the session, and the next turn with a tool works with the history', async () => {
      const url = session.ollama.url;
      const errorsBefore = errorLines().length;
      const restore = await arrange();
      pane.type(`Question while Ollama ${fault}`, 'Enter');
      await session.shows(`✗ ${message(url)}`);
      expect(errorLines()).toHaveLength(errorsBefore + 1);
      if (hint) expect(pane.screen()).toContain(hint);
      expect(pane.screen()).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
      await restore?.();

      session.ollama.script(textCall('calculator', 'evaluate', { expression: '6*7' }), `After ${fault}: 42.`);
      pane.type(`Compute after ${fault}`, 'Enter');
      await session.shows(`After ${fault}: 42.`);
      const sent = session.ollama.chatRequests.at(-1)?.messages.map((m) => m.content) ?? [];
      expect(sent).toEqual(
        expect.arrayContaining(['Remember 42', 'I will remember the number 42.', `Compute after ${fault}`]),
      );
      // A failed turn is rolled back: it never reaches the model again.
      expect(sent).not.toContain(`Question while Ollama ${fault}`);
      expect(sent.at(-1)).toContain('42');
      // The same server processes as before: nothing was restarted or lost.
      expect(descendants(pane.panePid())).toEqual(servers);
    });
  });

  it('quits and leaves no child process behind', async () => {
    pane.type('quit', 'Enter');
    await vi.waitFor(() => expect(pane.exited()).toBe(true), SCREEN_WAIT);
    await vi.waitFor(() => expect(servers.filter(isProcessAlive)).toEqual([]), SCREEN_WAIT);
  });
});
