/**
 * A new configuration applied to running servers (real children over stdio): an unchanged server
 * keeps its process, a changed one is restarted with its new entry, a removed one stops and a new
 * one starts; the catalogue follows.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpHost } from '../../src/mcp/host.js';
import { silentLogger } from '../../src/shared/log.js';
import { isProcessAlive, scriptedServer } from '../helpers/server-configs.js';
import { CONDITION_WAIT } from '../helpers/condition-wait.js';

const hosts: McpHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

async function pidOf(host: McpHost, server: string): Promise<number> {
  return Number((await host.callTool({ server, tool: 'pid', arguments: {} })).forModel);
}

describe('McpHost.reconfigure', () => {
  it('leaves the unchanged alone, restarts the changed, stops the removed and starts the added', async () => {
    const host = new McpHost([scriptedServer('same'), scriptedServer('edited'), scriptedServer('gone')], {
      log: silentLogger,
    });
    hosts.push(host);
    await host.start();
    const [same, edited, gone] = [await pidOf(host, 'same'), await pidOf(host, 'edited'), await pidOf(host, 'gone')];
    const change = await host.reconfigure([
      scriptedServer('same'),
      scriptedServer('edited', [], { timeoutMs: 9_000 }),
      scriptedServer('new'),
    ]);
    expect(change.removed).toEqual(['gone']);
    expect(host.statuses().map((status) => [status.name, status.state])).toEqual([
      ['same', 'ready'],
      ['edited', 'ready'],
      ['new', 'ready'],
    ]);
    expect(await pidOf(host, 'same')).toBe(same);
    expect(await pidOf(host, 'edited')).not.toBe(edited);
    await vi.waitFor(() => expect(isProcessAlive(gone)).toBe(false), CONDITION_WAIT);
    expect(new Set(host.listTools().map((tool) => tool.server))).toEqual(new Set(['same', 'edited', 'new']));
    const call = await host.callTool({ server: 'gone', tool: 'pid', arguments: {} });
    expect(call.forModel).toMatch(/^Unknown server "gone"/);
  });
});
