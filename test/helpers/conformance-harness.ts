/**
 * The MCP conformance harness (`@modelcontextprotocol/conformance`) run as a child process on
 * this test's Node, in a working directory of the test's own, killed if it outlives `timeoutMs`.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './server-configs.js';

export const HARNESS_DIR = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/conformance');

/** The harness's exit code and everything it printed. */
export function runConformanceHarness(
  args: string[],
  workDir: string,
  timeoutMs: number,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(HARNESS_DIR, 'dist/index.js'), ...args], {
      cwd: workDir,
      env: { PATH: process.env.PATH ?? '', HOME: workDir, NO_COLOR: '1' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
