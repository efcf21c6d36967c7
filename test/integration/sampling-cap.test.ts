/**
 * Sampling loop: a server that asks the user's model over and over during one tool call gets at
 * most MAX_SAMPLING_PER_CALL answers; the next call starts a fresh count.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerRequestHandler } from '../../src/vocabulary/server-requests.js';
import { McpHost } from '../../src/mcp/host.js';
import { MAX_SAMPLING_PER_CALL } from '../../src/mcp/managed-server.js';
import { createLogger } from '../../src/shared/log.js';
import { REPO_ROOT, stdioServer } from '../helpers/server-configs.js';

const LOOP = path.join(REPO_ROOT, 'test/fixtures/servers/sampling-loop.mjs');
const hosts: McpHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

describe('sampling loop', () => {
  it('a server gets at most the cap of completions in one call, and a fresh count on the next', async () => {
    let completions = 0;
    const answerEverything: ServerRequestHandler = {
      sample: async () => {
        completions += 1;
        return { model: 'llama3.2', text: 'ok', stopReason: 'endTurn' };
      },
      fillForm: async () => ({ action: 'decline' }),
      visitUrl: async () => 'decline',
      urlCompleted: () => undefined,
    };
    const host = new McpHost([stdioServer('loop', [LOOP])], {
      log: createLogger({ level: 'silent', file: null }),
      serverRequests: answerEverything,
    });
    hosts.push(host);
    await host.start();
    const looped = await host.callTool({ server: 'loop', tool: 'ask-model', arguments: { times: 25 } });
    expect(looped.forModel).toMatch(new RegExp(`^answered ${MAX_SAMPLING_PER_CALL} of 25; refused: `));
    expect(looped.forModel).toContain(
      `loop asked for more than ${MAX_SAMPLING_PER_CALL} completions during one call; mcp-chat declines the rest`,
    );
    expect(completions).toBe(MAX_SAMPLING_PER_CALL);
    const next = await host.callTool({ server: 'loop', tool: 'ask-model', arguments: { times: 3 } });
    expect(next.forModel).toBe('answered 3 of 3');
  });
});
