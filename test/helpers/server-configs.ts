/**
 * Server entries for host tests, built directly (not through the config loader) so a
 * host test fails only for the host's own reasons.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { RemoteServerConfig, StdioServerConfig } from '../../src/config/types.js';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const SCRIPTED = path.join(REPO_ROOT, 'test/fixtures/servers/scripted-server.mjs');

export function stdioServer(
  name: string,
  args: string[],
  overrides: Partial<StdioServerConfig> = {},
): StdioServerConfig {
  return {
    kind: 'stdio',
    name,
    command: process.execPath,
    args,
    env: {},
    cwd: REPO_ROOT,
    timeoutMs: 10_000,
    alwaysAllow: [],
    alwaysInclude: [],
    // As for any server a user adds: what it says of its tools is not trusted.
    trust: false,
    sampling: 'ask',
    elicitation: 'ask',
    ...overrides,
  };
}

/** A remote entry as a user adds one: Streamable HTTP, untrusted, asking before sampling or elicitation. */
export function remoteServer(
  name: string,
  url: string,
  overrides: Partial<RemoteServerConfig> = {},
): RemoteServerConfig {
  return {
    kind: 'remote',
    name,
    url,
    transport: 'http',
    headers: {},
    timeoutMs: 10_000,
    alwaysAllow: [],
    alwaysInclude: [],
    trust: false,
    sampling: 'ask',
    elicitation: 'ask',
    ...overrides,
  };
}

export function scriptedServer(
  name: string,
  extraArgs: string[] = [],
  overrides: Partial<StdioServerConfig> = {},
): StdioServerConfig {
  return stdioServer(name, [SCRIPTED, `name=${name}`, ...extraArgs], overrides);
}

/** One of our own servers, from the build (`npm test` builds first). */
export function builtServer(
  name: 'calculator' | 'file' | 'research',
  args: string[] = [],
  overrides: Partial<StdioServerConfig> = {},
): StdioServerConfig {
  // Trusted, as the config loader trusts the servers mcp-chat ships.
  return stdioServer(name, [path.join(REPO_ROOT, `dist/servers/${name}/main.js`), ...args], {
    trust: true,
    ...overrides,
  });
}

/**
 * Running, and not a zombie: a child killed after its parent exited has ended, but it may wait in
 * the process table for a reaper (a container's first process may never reap it).
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // Without /proc the signal's answer stands.
  if (!fs.existsSync('/proc/self')) return true;
  try {
    return !/^State:\s+Z/m.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false; // gone since the signal
  }
}

/** Every process below `pid`, found through /proc-backed `ps`. */
export function descendants(pid: number): number[] {
  const out = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' });
  const children = new Map<number, number[]>();
  for (const line of out.trim().split('\n')) {
    const [child, parent] = line.trim().split(/\s+/).map(Number);
    if (child === undefined || parent === undefined) continue;
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  const found: number[] = [];
  const queue = [...(children.get(pid) ?? [])];
  while (queue.length > 0) {
    const next = queue.shift() as number;
    found.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return found;
}
