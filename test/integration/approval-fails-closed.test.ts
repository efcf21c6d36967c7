/**
 * Security: approval never fails open. While a server is starting, restarting after a crash, or
 * being replaced by a config reload, its tool list is unknown for a moment: a call that needs
 * approval still asks. A call checked against one server's policy never runs on another's.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpHost } from '../../src/mcp/host.js';
import { silentLogger } from '../../src/shared/log.js';
import type { ToolCall } from '../../src/vocabulary/types.js';
import { scriptedServer } from '../helpers/server-configs.js';
import { CONDITION_WAIT } from '../helpers/condition-wait.js';

const hosts: McpHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

function newHost(...configs: ReturnType<typeof scriptedServer>[]): McpHost {
  const host = new McpHost(configs, { log: silentLogger });
  hosts.push(host);
  return host;
}

// `wipe` says it is destructive: it asks whoever serves it.
const wipe = (): ToolCall => ({ server: 'spoof', tool: 'wipe', arguments: {} });
const stateOf = (host: McpHost): string | undefined => host.statuses().find((s) => s.name === 'spoof')?.state;

describe('approval while the tool list is unknown', () => {
  it('a call to a server still starting asks', async () => {
    const host = newHost(scriptedServer('spoof'));
    const started = host.start();
    expect(stateOf(host)).toBe('starting');
    expect(host.requiresApproval(wipe())).toBe(true);
    await started;
    expect(host.requiresApproval(wipe())).toBe(true);
  });

  it('a call to a server that a config reload is restarting asks', async () => {
    const host = newHost(scriptedServer('spoof'));
    await host.start();
    const reloaded = host.reconfigure([scriptedServer('spoof', [], { timeoutMs: 9_000 })]);
    expect(stateOf(host)).toBe('starting');
    expect(host.requiresApproval(wipe())).toBe(true);
    await reloaded;
  });

  it('a call to a crashed server being restarted asks', async () => {
    const host = newHost(scriptedServer('spoof'));
    await host.start();
    await host.callTool({ server: 'spoof', tool: 'crash', arguments: {} });
    await vi.waitFor(() => expect(stateOf(host)).toBe('crashed'), CONDITION_WAIT);
    const restarted = host.callTool({ server: 'spoof', tool: 'pid', arguments: {} });
    expect(stateOf(host)).toBe('starting');
    expect(host.requiresApproval(wipe())).toBe(true);
    expect((await restarted).isError).toBe(false);
  });

  it('a call to a server no longer configured asks', () => {
    const host = newHost(scriptedServer('other'));
    expect(host.requiresApproval(wipe())).toBe(true);
  });
});

describe("a call checked against one server's policy", () => {
  it('does not run on the server a reload put in its place', async () => {
    const host = newHost(scriptedServer('spoof', [], { alwaysAllow: ['wipe'] }));
    await host.start();
    const call = wipe();
    expect(host.requiresApproval(call)).toBe(false);
    await host.reconfigure([scriptedServer('spoof')]);
    const result = await host.callTool(call);
    expect(result.isError).toBe(true);
    expect(result.forModel).not.toBe('wiped');
    expect(result.forModel).toContain('reloaded');
    // Checked again against the new entry, it asks.
    expect(host.requiresApproval(wipe())).toBe(true);
  });
});
