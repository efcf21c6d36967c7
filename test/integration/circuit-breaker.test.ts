/**
 * A server that keeps timing out is left alone (a real child over stdio): after three failed
 * calls in a row the next call fails at once without reaching it, `servers` can say so, and once
 * the cool-down is over a call that works closes the breaker. Errors the server sends back
 * (bad arguments) show it working and never open it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpHost } from '../../src/mcp/host.js';
import { silentLogger } from '../../src/shared/log.js';
import { scriptedServer } from '../helpers/server-configs.js';
import { CONDITION_WAIT } from '../helpers/condition-wait.js';

const hosts: McpHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

async function startFlaky(): Promise<McpHost> {
  const config = scriptedServer('flaky', [], { timeoutMs: 200, breaker: { failures: 3, cooldownMs: 400 } });
  const host = new McpHost([config], { log: silentLogger });
  hosts.push(host);
  await host.start();
  return host;
}

const slow = { server: 'flaky', tool: 'sleep', arguments: { ms: 5_000 } };
const echo = { server: 'flaky', tool: 'echo', arguments: { text: 'back' } };

describe('circuit breaker', () => {
  it('three timeouts in a row open it; the next call fails at once; after the cool-down a working call closes it', async () => {
    const host = await startFlaky();
    for (let i = 0; i < 3; i++) expect((await host.callTool(slow)).forModel).toContain('timed out');
    expect(host.statuses()[0]?.breaker).toMatchObject({ state: 'open', failures: 3 });
    const refused = await host.callTool(echo);
    expect(refused.isError).toBe(true);
    expect(refused.forModel).toMatch(/^server "flaky" is not being called for the next 1 s: its last 3 calls failed\./);
    await vi.waitFor(() => expect(host.statuses()[0]?.breaker?.state).toBe('half-open'), CONDITION_WAIT);
    expect(await host.callTool(echo)).toMatchObject({ isError: false, forModel: 'echo: back' });
    expect(host.statuses()[0]?.breaker).toBeUndefined();
  });

  it('a probe that fails opens it again for longer', async () => {
    const host = await startFlaky();
    for (let i = 0; i < 3; i++) await host.callTool(slow);
    await vi.waitFor(() => expect(host.statuses()[0]?.breaker?.state).toBe('half-open'), CONDITION_WAIT);
    await host.callTool(slow);
    const breaker = host.statuses()[0]?.breaker;
    expect(breaker).toMatchObject({ state: 'open', failures: 4 });
    expect(breaker?.state === 'open' && breaker.retryInMs).toBeGreaterThan(400);
  });

  it('errors the server sends back (bad arguments) never open it', async () => {
    const host = await startFlaky();
    for (let i = 0; i < 5; i++) {
      const bad = await host.callTool({ ...echo, arguments: { text: 42 } });
      expect(bad.isError).toBe(true);
    }
    expect(host.statuses()[0]?.breaker).toBeUndefined();
    expect((await host.callTool(echo)).forModel).toBe('echo: back');
  });
});
