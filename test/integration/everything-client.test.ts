/**
 * The MCP client features beyond tools, against the reference peer, server-everything, over
 * stdio and Streamable HTTP: the roots mcp-chat offers, the tools it registers only for a client
 * that declares roots, progress that keeps a long call alive past its timeout, and the server's
 * log messages landing in our log at their level.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ToolProgress } from '../../src/vocabulary/types.js';
import type { ServerConfig } from '../../src/config/types.js';
import { McpHost } from '../../src/mcp/host.js';
import { createLogger } from '../../src/shared/log.js';
import { execFileSync } from 'node:child_process';
import { EVERYTHING, everythingTransports } from '../helpers/everything.js';
import { killAll } from '../helpers/spawn-server.js';
import { descendants, stdioServer } from '../helpers/server-configs.js';

/** The per-call timeout the long operation must outlive by reporting progress. */
const CALL_TIMEOUT_MS = 1_500;

let dir: string;
const hosts: McpHost[] = [];

beforeAll(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-everything-')));
});
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
  await killAll();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const transports = everythingTransports(CALL_TIMEOUT_MS);

/** What the host heard from the server between requests. */
interface Heard {
  updated: string[];
  offersChanged: number;
}

async function startHost(config: ServerConfig, logFile: string, heard?: Heard): Promise<McpHost> {
  const roots = [dir, path.join(dir, 'notes')];
  const host = new McpHost([config], {
    log: createLogger({ level: 'debug', file: logFile }),
    roots,
    onResourceUpdated: (_server, uri) => heard?.updated.push(uri),
    onOffersChanged: () => {
      if (heard) heard.offersChanged += 1;
    },
  });
  hosts.push(host);
  await host.start();
  return host;
}

describe.each(transports)('server-everything over %s', (transport, config) => {
  it('gets the roots mcp-chat offers, through the tool it registers only for a client that declares roots', async () => {
    const host = await startHost(await config(), path.join(dir, `${transport}-roots.log`));
    expect(host.listTools().map((tool) => tool.name)).toContain('get-roots-list');
    const result = await host.callTool({ server: 'everything', tool: 'get-roots-list', arguments: {} });
    expect(result.isError).toBe(false);
    expect(result.forModel).toContain(pathToFileURL(dir).href);
    expect(result.forModel).toContain(pathToFileURL(path.join(dir, 'notes')).href);
  });

  it('a long operation that reports progress outlives the per-call timeout, and each report is heard', async () => {
    const host = await startHost(await config(), path.join(dir, `${transport}-progress.log`));
    const reports: ToolProgress[] = [];
    const call = { server: 'everything', tool: 'trigger-long-running-operation', arguments: { duration: 4, steps: 8 } };
    const result = await host.callTool(call, undefined, (progress) => reports.push(progress));
    expect(result).toMatchObject({ isError: false });
    expect(result.forModel).toContain('Long running operation completed');
    expect(result.durationMs).toBeGreaterThan(CALL_TIMEOUT_MS);
    // The SDK may drop the last report when it arrives together with the result (its handler goes
    // with the response): every report up to there is heard, in order.
    expect(reports.length).toBeGreaterThanOrEqual(7);
    expect(reports).toEqual(Array.from({ length: reports.length }, (_, index) => ({ progress: index + 1, total: 8 })));
  });

  it('lists its prompts and resources, runs a prompt with an argument and reads a resource', async () => {
    const host = await startHost(await config(), path.join(dir, `${transport}-offers.log`));
    expect((await host.listPrompts()).map((prompt) => prompt.name)).toContain('args-prompt');
    const messages = await host.getPrompt('everything', 'args-prompt', { city: 'Lisbon' });
    expect(messages).toEqual([{ role: 'user', content: "What's weather in Lisbon?" }]);
    const resources = await host.listResources();
    const architecture = resources.find((resource) => resource.uri.endsWith('/architecture.md'));
    expect(architecture).toMatchObject({ server: 'everything', mimeType: 'text/markdown' });
    expect(await host.readResource('everything', architecture?.uri ?? '')).toContain('# ');
    expect((await host.listResourceTemplates()).length).toBeGreaterThan(0);
    await expect(host.getPrompt('everything', 'no-such-prompt', {})).rejects.toThrow(
      /^prompt everything:no-such-prompt failed: /,
    );
  });

  it('completes a prompt argument, narrowed by the arguments typed before it', async () => {
    const host = await startHost(await config(), path.join(dir, `${transport}-complete.log`));
    const complete = (name: string, value: string, typed: Record<string, string> = {}) =>
      host.completePromptArgument('everything', 'completable-prompt', { name, value }, typed);
    expect(await complete('department', 'Eng')).toEqual(['Engineering']);
    expect(await complete('department', '')).toEqual(['Engineering', 'Sales', 'Marketing', 'Support']);
    expect(await complete('name', '', { department: 'Sales' })).toEqual(['David', 'Eve', 'Frank']);
    expect(await complete('name', '', {})).toEqual([]);
    // A prompt with no completions, and a server not configured, suggest nothing rather than fail.
    expect(await host.completePromptArgument('everything', 'args-prompt', { name: 'city', value: 'L' }, {})).toEqual(
      [],
    );
    expect(await host.completePromptArgument('nowhere', 'x', { name: 'a', value: '' }, {})).toEqual([]);
  });

  it('announces a new resource (list_changed), and the listing then has it', async () => {
    const heard: Heard = { updated: [], offersChanged: 0 };
    const host = await startHost(await config(), path.join(dir, `${transport}-offers-changed.log`), heard);
    const data = `data:text/plain;base64,${Buffer.from('hello').toString('base64')}`;
    const made = await host.callTool({
      server: 'everything',
      tool: 'gzip-file-as-resource',
      arguments: { name: 'hello.txt.gz', data },
    });
    expect(made.isError).toBe(false);
    await vi.waitFor(() => expect(heard.offersChanged).toBeGreaterThan(0), { timeout: 5_000, interval: 20 });
    expect((await host.listResources()).map((resource) => resource.uri)).toContain(
      'demo://resource/session/hello.txt.gz',
    );
  });

  it('the server’s log messages go to our log, at their level', async () => {
    const logFile = path.join(dir, `${transport}-logging.log`);
    const host = await startHost(await config(), logFile);
    await host.callTool({ server: 'everything', tool: 'toggle-simulated-logging', arguments: {} });
    await vi.waitFor(
      () => {
        const line = fs
          .readFileSync(logFile, 'utf8')
          .split('\n')
          .find((entry) => entry.includes('"server log message"'));
        expect(line).toBeDefined();
        const entry = JSON.parse(line as string) as { level: number; mcpLevel: string };
        expect(entry).toMatchObject({ server: 'everything', msg: 'server log message' });
        // pino's numbers: debug 20, info 30, warn 40, error 50, fatal 60.
        const pinoLevel: Record<string, number> = { debug: 20, info: 30, notice: 30, warning: 40, error: 50 };
        Object.assign(pinoLevel, { critical: 50, alert: 60, emergency: 60 });
        expect(entry.level).toBe(pinoLevel[entry.mcpLevel]);
      },
      { timeout: 10_000, interval: 50 },
    );
  });
});

describe('server-everything restarted', () => {
  it('a watched resource is watched again after the server restarts', async () => {
    const heard: Heard = { updated: [], offersChanged: 0 };
    const config = stdioServer('everything', [EVERYTHING, 'stdio'], { timeoutMs: 10_000 });
    const host = await startHost(config, path.join(dir, 'restart-watch.log'), heard);
    const uri = (await host.listResources()).find((resource) => resource.uri.endsWith('/architecture.md'))?.uri ?? '';
    await host.watch('everything', uri);
    const child = descendants(process.pid).find((pid) =>
      execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }).includes(EVERYTHING),
    );
    expect(child).toBeDefined();
    process.kill(child as number, 'SIGKILL');
    await vi.waitFor(() => expect(host.statuses()[0]?.state).toBe('crashed'), { timeout: 5_000, interval: 20 });
    // The next call starts it again; the new process hears of the watch only if the host says it again.
    const toggled = await host.callTool({ server: 'everything', tool: 'toggle-subscriber-updates', arguments: {} });
    expect(toggled.isError).toBe(false);
    await vi.waitFor(() => expect(heard.updated).toContain(uri), { timeout: 8_000, interval: 50 });
  });
});
