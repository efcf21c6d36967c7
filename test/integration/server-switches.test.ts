/**
 * Turning tools and servers off without editing anything else (real children over stdio): a tool
 * the entry turns off is neither listed nor callable, and a server turned off with `/disable` is
 * stopped, leaves the catalogue, and comes back as a new process with `/enable`.
 */
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpHost } from '../../src/mcp/host.js';
import { silentLogger } from '../../src/shared/log.js';
import { descendants, isProcessAlive, scriptedServer } from '../helpers/server-configs.js';
import { CONDITION_WAIT } from '../helpers/condition-wait.js';

const hosts: McpHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

async function start(...configs: ReturnType<typeof scriptedServer>[]): Promise<McpHost> {
  const host = new McpHost(configs, { log: silentLogger });
  hosts.push(host);
  await host.start();
  return host;
}

async function pidOf(host: McpHost, server: string): Promise<number> {
  return Number((await host.callTool({ server, tool: 'pid', arguments: {} })).forModel);
}

describe('turning tools and servers off', () => {
  it('a tool the entry turns off is not in the catalogue, and a call to it is refused without reaching the server', async () => {
    const host = await start(scriptedServer('one', [], { excludeTools: ['crash'] }));
    expect(host.listTools().map((tool) => tool.name)).not.toContain('crash');
    expect(host.turnedOffTools()).toEqual({ one: ['crash'] });
    const refused = await host.callTool({ server: 'one', tool: 'crash', arguments: {} });
    expect(refused).toMatchObject({
      isError: true,
      forModel: 'Tool "crash" of server "one" is turned off in its config entry; do without it.',
    });
    expect(host.statuses()[0]?.state).toBe('ready');
  });

  it('/disable stops the server and takes its tools away; /enable starts it again', async () => {
    const host = await start(scriptedServer('one'), scriptedServer('two'));
    const first = await pidOf(host, 'one');
    await host.setEnabled('one', false);
    expect(host.statuses().map((status) => status.state)).toEqual(['disabled', 'ready']);
    expect(host.listTools().every((tool) => tool.server === 'two')).toBe(true);
    await vi.waitFor(() => expect(isProcessAlive(first)).toBe(false), CONDITION_WAIT);
    const refused = await host.callTool({ server: 'one', tool: 'echo', arguments: { text: 'x' } });
    expect(refused.forModel).toBe('server "one" is turned off for now (/enable one turns it on)');
    await host.setEnabled('one', true);
    expect(host.statuses()[0]?.state).toBe('ready');
    expect(await pidOf(host, 'one')).not.toBe(first);
  });

  it('/disable while the server is still starting leaves it off, with no process left behind', async () => {
    const host = new McpHost([scriptedServer('one')], { log: silentLogger });
    hosts.push(host);
    const starting = host.start();
    await host.setEnabled('one', false);
    await starting;
    expect(host.statuses()[0]?.state).toBe('disabled');
    expect(host.listTools()).toEqual([]);
    // One look at every process: a child that exits between a listing and a second look is not an error.
    const ours = () => {
      const mine = new Set(descendants(process.pid));
      return execFileSync('ps', ['-e', '-o', 'pid=,args='], { encoding: 'utf8' })
        .split('\n')
        .filter((line) => line.includes('name=one') && mine.has(Number(line.trim().split(/\s+/)[0])));
    };
    await vi.waitFor(() => expect(ours()).toEqual([]), { ...CONDITION_WAIT, interval: 50 });
  });
});
