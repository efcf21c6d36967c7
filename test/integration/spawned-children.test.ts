/**
 * Stdio servers spawned before the host's code is loaded (src/mcp/spawned-child.ts), over real
 * child processes: the host speaks to the child spawned for it and spawns no other; a child that
 * died, or could not be spawned, before its client connected fails the start exactly as it fails
 * when spawned by the connect itself; what a child says before its client listens is not lost; a
 * changed entry gets no other entry's child; and children no connect took are stopped.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StdioServerConfig } from '../../src/config/types.js';
import { McpHost } from '../../src/mcp/host.js';
import { SpawnedChildren } from '../../src/mcp/spawned-child.js';
import { createLogger, silentLogger } from '../../src/shared/log.js';
import { withHost } from '../../src/session/with-host.js';
import { isProcessAlive, REPO_ROOT, scriptedServer, stdioServer } from '../helpers/server-configs.js';
import { testRuntime } from '../helpers/test-session.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The scripted server records each process it starts as `<name>.<pid>` in `dir` (its rendezvous). */
function recordedServer(name: string, dir: string, extra: string[] = []): StdioServerConfig {
  return scriptedServer(name, [...extra, `rendezvous=${dir}:1`]);
}

/** Waits for a condition of the children, never for a fixed time. */
async function until(what: string, condition: () => boolean): Promise<void> {
  await vi.waitFor(() => expect(condition(), what).toBe(true), { timeout: 10_000, interval: 10 });
}

function startedPids(dir: string): number[] {
  return fs.readdirSync(dir).map((file) => Number(file.split('.').pop()));
}

function hostOver(configs: StdioServerConfig[], spawned?: SpawnedChildren, log = silentLogger): McpHost {
  const host = new McpHost(configs, { log, ...(spawned ? { spawned } : {}) });
  cleanups.push(() => host.close());
  return host;
}

/** Why a server's start failed, spawned ahead or by the connect itself. */
async function startFailure(config: StdioServerConfig, spawnedAhead: boolean): Promise<string | undefined> {
  const spawned = spawnedAhead ? SpawnedChildren.spawn([config]) : undefined;
  if (spawned) cleanups.push(() => spawned.close());
  const host = hostOver([config], spawned);
  await host.start();
  const [status] = host.statuses();
  expect(status?.state).toBe('failed');
  return status?.lastError;
}

describe('servers spawned before the host is loaded', () => {
  it('the host speaks to the child spawned for it, and spawns no other', async () => {
    const dir = tempDir('mcp-spawned-once-');
    const config = recordedServer('early', dir);
    const spawned = SpawnedChildren.spawn([config]);
    cleanups.push(() => spawned.close());
    await until('the child has started', () => fs.readdirSync(dir).length === 1);
    const host = hostOver([config], spawned);
    await host.start();
    const answer = await host.callTool({ server: 'early', tool: 'pid', arguments: {} });
    expect(answer.isError).toBe(false);
    expect(startedPids(dir)).toEqual([Number(answer.forModel)]);
  });

  it('withHost spawns each stdio server once, and every child is gone when it returns', async () => {
    const dir = tempDir('mcp-with-host-once-');
    const runtime = testRuntime();
    runtime.config.servers = [recordedServer('one', dir), recordedServer('two', dir)];
    const states = await withHost(runtime, { warn: () => undefined }, async (host) =>
      host.statuses().map((status) => status.state),
    );
    expect(states).toEqual(['ready', 'ready']);
    const pids = startedPids(dir);
    expect(pids).toHaveLength(2);
    expect(pids.filter(isProcessAlive)).toEqual([]);
  });

  it('a child that died before its client connected fails the start as one that dies during the connect', async () => {
    const dir = tempDir('mcp-spawned-died-');
    const pidFile = path.join(dir, 'pid');
    // The scripted server's `start-fail`, behind a shell that first says which process it is.
    const scripted = path.join(REPO_ROOT, 'test/fixtures/servers/scripted-server.mjs');
    const config = stdioServer(
      'broken',
      ['-c', `echo $$ > ${pidFile}; exec "${process.execPath}" ${scripted} start-fail`],
      {
        command: '/bin/sh',
      },
    );
    const spawned = SpawnedChildren.spawn([config]);
    cleanups.push(() => spawned.close());
    await until(
      'the child has exited',
      () => fs.existsSync(pidFile) && !isProcessAlive(Number(fs.readFileSync(pidFile, 'utf8'))),
    );
    const host = hostOver([config], spawned);
    await host.start();
    const [early] = host.statuses();
    expect(early?.state).toBe('failed');
    expect(early?.lastError).toContain('cannot open database /nonexistent/db.sqlite');
    expect(early?.lastError).toBe(await startFailure(config, false));
  });

  it('a command that cannot be spawned fails the start as it does when the connect spawns it', async () => {
    const config = stdioServer('missing', [], { command: '/nonexistent/mcp-server' });
    const early = await startFailure(config, true);
    expect(early).toContain('ENOENT');
    expect(early).toBe(await startFailure(config, false));
  });

  it('a line the child wrote before its client listened is heard once the client does', async () => {
    const dir = tempDir('mcp-spawned-banner-');
    const logFile = path.join(dir, 'host.log');
    const config = recordedServer('banner', path.join(dir, 'started'), ['stdout-banner']);
    fs.mkdirSync(path.join(dir, 'started'));
    const spawned = SpawnedChildren.spawn([config]);
    cleanups.push(() => spawned.close());
    // The banner goes out (synchronously, to a pipe) before the child records that it started.
    await until('the child has started', () => fs.readdirSync(path.join(dir, 'started')).length === 1);
    const host = hostOver([config], spawned, createLogger({ level: 'info', file: logFile }));
    await host.start();
    expect(host.statuses()[0]?.state).toBe('ready');
    expect(fs.readFileSync(logFile, 'utf8')).toContain('server wrote a line on stdout that is not JSON-RPC');
  });

  it('a changed entry gets no other entry’s child, and each child is taken once', async () => {
    const dir = tempDir('mcp-spawned-take-');
    const config = recordedServer('taken', dir);
    const spawned = SpawnedChildren.spawn([config]);
    cleanups.push(() => spawned.close());
    expect(spawned.take({ ...config })).toBeUndefined();
    const child = spawned.take(config);
    // Taken, it is no longer the set's to stop.
    cleanups.push(() => child?.close());
    expect(child?.config).toBe(config);
    expect(spawned.take(config)).toBeUndefined();
  });

  it('children no connect took are stopped on close', async () => {
    const dir = tempDir('mcp-spawned-close-');
    const spawned = SpawnedChildren.spawn([recordedServer('a', dir), recordedServer('b', dir)]);
    await until('both children have started', () => fs.readdirSync(dir).length === 2);
    const pids = startedPids(dir);
    expect(pids.filter(isProcessAlive)).toHaveLength(2);
    await spawned.close();
    await until('both children are gone', () => pids.filter(isProcessAlive).length === 0);
  });
});
