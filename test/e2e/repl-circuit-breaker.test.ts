/**
 * A server that fails three calls in a row, as the REPL shows it (tmux, the built binary, the
 * fake Ollama): the fourth call is refused at once and the model is told why; `servers` says for
 * how long; once the cool-down is over a call that works closes the breaker.
 */
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { REPO_ROOT } from '../helpers/server-configs.js';
import { SCREEN_WAIT, useReplSession } from '../helpers/repl-session.js';
import { TmuxPane } from '../helpers/tmux.js';

const SCRIPTED = path.join(REPO_ROOT, 'test/fixtures/servers/scripted-server.mjs');
const call = (tool: string, args: Record<string, unknown>): string =>
  JSON.stringify({ action: 'use_tool', server: 'flaky', tool, arguments: args });

describe.skipIf(!TmuxPane.available())('a failing server in the REPL', () => {
  const repl = useReplSession({
    height: 50,
    config: {
      mcpServers: {
        flaky: {
          command: 'node',
          args: [SCRIPTED, 'name=flaky'],
          timeout: 0.3,
          alwaysAllow: ['sleep', 'echo'],
          circuitBreaker: { failures: 3, cooldown: 1 },
        },
      },
    },
  });

  it('is short-circuited after three failures in a row, and recovers once a call works', async () => {
    await repl.shows('flaky ✓');
    // Different arguments each time: the same failing call is not run a third time in one turn.
    const slow = (ms: number): string => call('sleep', { ms });
    repl.ollama.script(slow(5_000), slow(5_001), slow(5_002), call('echo', { text: 'hi' }), 'The server is down.');
    repl.pane.type('try the slow tool', 'Enter');
    await repl.shows('The server is down.');
    const sent = () =>
      repl.ollama.chatRequests.flatMap((request) => request.messages).map((message) => message.content);
    expect(sent().join('\n---\n')).toContain('server "flaky" is not being called for the next');
    repl.pane.type('servers', 'Enter');
    await repl.shows('failed calls in a row)');
    // The cool-down is a second: `servers` says when a call may try again.
    await vi.waitFor(() => {
      repl.pane.type('servers', 'Enter');
      expect(repl.pane.screen()).toContain('its next call tries it again (3 failed calls in a row)');
    }, SCREEN_WAIT);
    repl.ollama.script(call('echo', { text: 'back' }), 'It is back.');
    repl.pane.type('try again', 'Enter');
    await repl.shows('It is back.');
    expect(sent().some((content) => content.includes('echo: back'))).toBe(true);
  });
});
