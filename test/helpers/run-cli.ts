/**
 * Runs the built `mcp-chat` binary as a child process, the way a user or a script
 * does, and collects its exit code and both output streams.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './server-configs.js';

export const CLI = path.join(REPO_ROOT, 'dist/src/cli.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  env?: Record<string, string>;
  stdin?: string;
  /** Kills the child if it has not exited by then: a hang fails the test instead of stalling it. */
  timeoutMs?: number;
}

let stateHome: string | undefined;

/**
 * A state directory (`XDG_STATE_HOME`, and `XDG_CACHE_HOME` inside it) for this test process's
 * children, so no test reads or writes the developer's own (trusted directories, compile cache),
 * whatever HOME it sets; removed when the process ends.
 */
function testStateHome(): string {
  if (stateHome === undefined) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-chat-state-'));
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    stateHome = dir;
  }
  return stateHome;
}

/** Environment for a child: only what a program needs, so the developer's own settings never leak in. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'LANG'];
  const base = Object.fromEntries(keep.flatMap((key) => (process.env[key] ? [[key, process.env[key] as string]] : [])));
  const home = testStateHome();
  return {
    ...base,
    MCP_CHAT_LOG_LEVEL: 'debug',
    XDG_STATE_HOME: home,
    XDG_CACHE_HOME: path.join(home, 'cache'),
    ...extra,
  };
}

export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return runNode([CLI, ...args], options);
}

/** Runs `node <args>` to its exit and collects both streams (the benchmarks time it too). */
export function runNode(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: options.cwd ?? REPO_ROOT,
      env: options.env ?? cleanEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 45_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.stdin ?? '');
  });
}
