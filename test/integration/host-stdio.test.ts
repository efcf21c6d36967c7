import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpHost } from '../../src/mcp/host.js';
import { resultSummary } from '../../src/present/tool-line.js';
import { silentLogger } from '../../src/shared/log.js';
import type { ServerStatus } from '../../src/mcp/host.js';
import { isProcessAlive, scriptedServer } from '../helpers/server-configs.js';
import { CONDITION_WAIT } from '../helpers/condition-wait.js';

const hosts: McpHost[] = [];
function createHost(...configs: Parameters<typeof scriptedServer>[]): McpHost {
  const host = new McpHost(
    configs.map((c) => scriptedServer(...c)),
    { log: silentLogger },
  );
  hosts.push(host);
  return host;
}
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

async function pidOf(host: McpHost, server: string): Promise<number> {
  const result = await host.callTool({ server, tool: 'pid', arguments: {} });
  expect(result.isError).toBe(false);
  return Number(result.forModel);
}

describe('McpHost over real stdio children', () => {
  it('starts servers in parallel: each answers only after all siblings were spawned', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-rendezvous-'));
    const rendezvous = `rendezvous=${dir}:3`;
    const host = createHost(['a', [rendezvous]], ['b', [rendezvous]], ['c', [rendezvous]]);
    await host.start();
    expect(host.statuses().map((s) => [s.name, s.state])).toEqual([
      ['a', 'ready'],
      ['b', 'ready'],
      ['c', 'ready'],
    ]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('isolates a server that fails at start: it is reported with its stderr and command, the others work', async () => {
    const host = createHost(['good'], ['broken', ['start-fail']]);
    await host.start();
    const broken = host.statuses().find((s) => s.name === 'broken') as ServerStatus;
    expect(broken.state).toBe('failed');
    expect(broken.lastError).toContain('cannot open database /nonexistent/db.sqlite');
    expect(broken.lastError).toContain('scripted-server.mjs');
    const echo = await host.callTool({ server: 'good', tool: 'echo', arguments: { text: 'hi' } });
    expect(echo).toMatchObject({ isError: false, forModel: 'echo: hi' });
    const refused = await host.callTool({ server: 'broken', tool: 'echo', arguments: { text: 'hi' } });
    expect(refused.isError).toBe(true);
    expect(refused.forModel).toContain('not available');
  });

  it('lists tools by server with schemas and annotations', async () => {
    const host = createHost(['one']);
    await host.start();
    const echo = host.listTools().find((t) => t.name === 'echo');
    expect(echo).toMatchObject({ server: 'one', annotations: { readOnlyHint: true } });
    expect(echo?.inputSchema.properties).toHaveProperty('text');
  });

  it('hands out one catalogue while the tools stay the same, and a new one when a server drops out', async () => {
    const host = createHost(['good'], ['crashy']);
    await host.start();
    const first = host.listTools();
    expect(host.listTools()).toBe(first);
    expect(first.map((t) => t.server)).toContain('crashy');
    for (let attempt = 0; attempt < 3; attempt++) {
      await host.callTool({ server: 'crashy', tool: 'crash', arguments: {} });
      await vi.waitFor(() => expect(host.statuses()[1]?.state).not.toBe('ready'), CONDITION_WAIT);
    }
    expect(host.statuses()[1]?.state).toBe('failed');
    const after = host.listTools();
    expect(after).not.toBe(first);
    expect(new Set(after.map((t) => t.server))).toEqual(new Set(['good']));
    expect(host.listTools()).toBe(after);
  });

  it('turns unknown servers, unknown tools, bad arguments and error results into error results', async () => {
    const host = createHost(['one']);
    await host.start();
    const noServer = await host.callTool({ server: 'nope', tool: 'echo', arguments: {} });
    expect(noServer).toMatchObject({ isError: true });
    expect(noServer.forModel).toContain('Available servers: one');
    const noTool = await host.callTool({ server: 'ONE', tool: 'nope', arguments: {} });
    expect(noTool.isError).toBe(true);
    expect(noTool.forModel).toMatch(/Unknown tool "nope".*echo/);
    const badArgs = await host.callTool({ server: 'one', tool: 'echo', arguments: { text: 42 } });
    expect(badArgs.isError).toBe(true);
    expect(badArgs.forModel).toMatch(/text/);
    const failed = await host.callTool({ server: 'one', tool: 'fail', arguments: {} });
    expect(failed).toMatchObject({ isError: true, forModel: 'it went wrong' });
  });

  it('restarts a server that crashed mid-call on the next call', async () => {
    const host = createHost(['flaky']);
    await host.start();
    const firstPid = await pidOf(host, 'flaky');
    const crashed = await host.callTool({ server: 'flaky', tool: 'crash', arguments: {} });
    expect(crashed.isError).toBe(true);
    expect(crashed.forModel).toContain('stopped during the call');
    await vi.waitFor(() => expect(host.statuses()[0]?.state).toBe('crashed'), CONDITION_WAIT);
    expect(host.statuses()[0]?.lastError).toContain('simulated crash');
    const secondPid = await pidOf(host, 'flaky');
    expect(secondPid).not.toBe(firstPid);
    expect(isProcessAlive(firstPid)).toBe(false);
  });

  it('gives up on a server after repeated crashes and says so', async () => {
    const host = createHost(['crashy']);
    await host.start();
    for (let attempt = 0; attempt < 3; attempt++) {
      await host.callTool({ server: 'crashy', tool: 'crash', arguments: {} });
      await vi.waitFor(() => expect(host.statuses()[0]?.state).not.toBe('ready'), CONDITION_WAIT);
    }
    const refused = await host.callTool({ server: 'crashy', tool: 'echo', arguments: { text: 'x' } });
    expect(refused.isError).toBe(true);
    expect(refused.forModel).toContain('crashed 3 times');
    expect(host.statuses()[0]?.state).toBe('failed');
  });

  it('cancels a call that outlives the server timeout and tells the server', async () => {
    const host = new McpHost([scriptedServer('slow', [], { timeoutMs: 300 })], { log: silentLogger });
    hosts.push(host);
    await host.start();
    const result = await host.callTool({ server: 'slow', tool: 'hang', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.forModel).toContain('timed out after 0.3 s');
    await vi.waitFor(async () => {
      const count = await host.callTool({ server: 'slow', tool: 'cancellations', arguments: {} });
      expect(count.forModel).toBe('1');
    }, CONDITION_WAIT);
  });

  it('cancels a call when the caller aborts, and the server is told', async () => {
    const host = createHost(['slow']);
    await host.start();
    const controller = new AbortController();
    const pending = host.callTool({ server: 'slow', tool: 'hang', arguments: {} }, controller.signal);
    await vi.waitFor(async () => {
      expect((await host.callTool({ server: 'slow', tool: 'hanging', arguments: {} })).forModel).toBe('1');
    }, CONDITION_WAIT);
    controller.abort();
    const result = await pending;
    expect(result).toMatchObject({ isError: true });
    expect(result.forModel).toContain('cancelled by the user');
    await vi.waitFor(async () => {
      const count = await host.callTool({ server: 'slow', tool: 'cancellations', arguments: {} });
      expect(count.forModel).toBe('1');
    }, CONDITION_WAIT);
  });

  it('secret in parent environment does not reach a stdio server; its own env does', async () => {
    vi.stubEnv('MCP_CHAT_TEST_SECRET', 'parent-secret-value');
    const host = new McpHost([scriptedServer('envy', [], { env: { GIVEN: 'its-own' } })], { log: silentLogger });
    hosts.push(host);
    await host.start();
    const result = await host.callTool({ server: 'envy', tool: 'env', arguments: {} });
    const childEnv = JSON.parse(result.forModel) as Record<string, string>;
    // Under 8 characters: too short to be taken for a secret, so it is shown and can be checked.
    expect(childEnv.GIVEN).toBe('its-own');
    expect(childEnv).not.toHaveProperty('MCP_CHAT_TEST_SECRET');
    expect(result.forModel).not.toContain('parent-secret-value');
    vi.unstubAllEnvs();
  });

  it('strips ANSI and control sequences from the display line (terminal injection)', async () => {
    const host = createHost(['ansi']);
    await host.start();
    const result = await host.callTool({ server: 'ansi', tool: 'ansi', arguments: {} });
    // The host passes the text on raw; its tool line, as every printer makes it, is inert.
    expect(resultSummary(result)).toBe('red done next');
    expect(resultSummary(result)).not.toMatch(/[\u0000-\u001f]/);
  });

  it('leaves no child process behind on close', async () => {
    const host = createHost(['a'], ['b']);
    await host.start();
    const pids = [await pidOf(host, 'a'), await pidOf(host, 'b')];
    expect(pids.every(isProcessAlive)).toBe(true);
    await host.close();
    expect(pids.some(isProcessAlive)).toBe(false);
  });
});
