/**
 * The peers, installed on demand from the npm registry into the benchmark's own cache
 * (never the project's dependencies), at pinned versions so every run compares the same
 * programs; a peer that cannot be installed or started is skipped with the reason.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface PeerPackage {
  id: 'codex' | 'opencode';
  packageName: string;
  version: string;
  bin: string;
}

export const PEER_PACKAGES: PeerPackage[] = [
  { id: 'codex', packageName: '@openai/codex', version: '0.171.0', bin: 'codex' },
  { id: 'opencode', packageName: 'opencode-ai', version: '1.18.33', bin: 'opencode' },
];

export type Installed = { ok: true; binary: string } | { ok: false; reason: string };

/** `$MCP_CHAT_BENCH_PEERS`, else `$XDG_CACHE_HOME/mcp-chat-bench/peers` (`~/.cache/…` without it). */
export function peersDir(): string {
  if (process.env.MCP_CHAT_BENCH_PEERS) return process.env.MCP_CHAT_BENCH_PEERS;
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(cache, 'mcp-chat-bench', 'peers');
}

function run(command: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: timeoutMs, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error)
        reject(new Error(`${error.message.split('\n')[0]}${stderr ? `: ${stderr.trim().split('\n').at(-1)}` : ''}`));
      else resolve(stdout);
    });
  });
}

function installedVersion(prefix: string, pkg: PeerPackage): string | undefined {
  const manifest = path.join(prefix, 'node_modules', pkg.packageName, 'package.json');
  if (!fs.existsSync(manifest)) return undefined;
  return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version?: string }).version;
}

/** Installs `pkg` if its pinned version is not in the cache yet, then checks that it starts. */
export async function installPeer(pkg: PeerPackage, say: (line: string) => void): Promise<Installed> {
  const prefix = path.join(peersDir(), `${pkg.id}-${pkg.version}`);
  const binary = path.join(prefix, 'node_modules', '.bin', pkg.bin);
  try {
    if (installedVersion(prefix, pkg) !== pkg.version || !fs.existsSync(binary)) {
      say(`installing ${pkg.packageName}@${pkg.version} into ${prefix} (the benchmark's cache, not the project)`);
      fs.mkdirSync(prefix, { recursive: true });
      const spec = `${pkg.packageName}@${pkg.version}`;
      await run('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', spec], 600_000);
    } else {
      say(`${pkg.packageName}@${pkg.version} already in ${prefix}`);
    }
  } catch (error) {
    return { ok: false, reason: `could not install ${pkg.packageName}@${pkg.version}: ${(error as Error).message}` };
  }
  try {
    await run(binary, ['--version'], 60_000);
  } catch (error) {
    return { ok: false, reason: `${pkg.packageName}@${pkg.version} does not start: ${(error as Error).message}` };
  }
  return { ok: true, binary };
}
