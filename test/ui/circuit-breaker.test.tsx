/**
 * A server that fails three calls in a row, as the REPL shows it (the chat wired as the program
 * wires it, the scripted server, the fake Ollama): the fourth call is refused at once and the model
 * is told why; `servers` says for how long; once the cool-down is over a call that works closes the
 * breaker.
 */
import path from 'node:path';
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/server-configs.js';
import { useLiveRepl } from './live-repl.js';

const SCRIPTED = path.join(REPO_ROOT, 'test/fixtures/servers/scripted-server.mjs');
const call = (tool: string, args: Record<string, unknown>): string =>
  JSON.stringify({ action: 'use_tool', server: 'flaky', tool, arguments: args });

afterEach(() => cleanup());

describe('a failing server in the REPL', () => {
  const repl = useLiveRepl({
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
    const app = await repl.open();
    await app.waitForScreen('flaky ✓');
    // Different arguments each time: the same failing call is not run a third time in one turn.
    const slow = (ms: number): string => call('sleep', { ms });
    repl.ollama.script(slow(5_000), slow(5_001), slow(5_002), call('echo', { text: 'hi' }), 'The server is down.');
    app.send('try the slow tool');
    await app.waitForAnswer('The server is down.');
    const sent = () =>
      repl.ollama.chatRequests.flatMap((request) => request.messages).map((message) => message.content);
    expect(sent().join('\n---\n')).toContain('server "flaky" is not being called for the next');
    app.send('servers');
    await app.waitForScreen('failed calls in a row)');
    // The cool-down is a second: once it is over, `servers` says the next call tries again.
    await app.waitUntil(() => expect(repl.session.statuses()[0]?.breaker?.state).toBe('half-open'));
    app.send('servers');
    // Wherever the terminal's width wraps the line.
    await app.waitUntil(() =>
      expect(app.screen().replace(/\s+/g, ' ')).toContain('its next call tries it again (3 failed calls in a row)'),
    );
    repl.ollama.script(call('echo', { text: 'back' }), 'It is back.');
    app.send('try again');
    await app.waitForAnswer('It is back.');
    expect(sent().some((content) => content.includes('echo: back'))).toBe(true);
  });
});
