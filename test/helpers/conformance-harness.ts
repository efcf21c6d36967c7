/**
 * The MCP conformance harness (`@modelcontextprotocol/conformance`) run as a child process in a
 * working directory of the test's own, killed if it outlives `timeoutMs`. The harness needs Node
 * 22 or newer (it imports `fs.globSync`); mcp-chat itself, and the client the harness drives, run
 * on the test's own Node.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './server-configs.js';

export const HARNESS_DIR = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/conformance');
/** The first Node major the harness loads on (upstream runs it on 22: modelcontextprotocol/conformance#162). */
const HARNESS_NODE_MAJOR = 22;

/**
 * Why the harness cannot run here, if it cannot: on a Node older than it needs, with no newer one
 * named. The conformance files are then skipped, saying so, and `npm test` stays green on the
 * machine's Node; `.ci/run` names the LTS line, so the gate always runs them.
 */
export function harnessUnavailable(): string | undefined {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= HARNESS_NODE_MAJOR || process.env.MCP_CONFORMANCE_NODE) return undefined;
  return `skipped: the harness needs Node ${HARNESS_NODE_MAJOR}+ (set MCP_CONFORMANCE_NODE to run it here)`;
}

/** The Node that runs the harness: this one when new enough, else the one `MCP_CONFORMANCE_NODE` names. */
export function harnessNode(): string {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= HARNESS_NODE_MAJOR) return process.execPath;
  const configured = process.env.MCP_CONFORMANCE_NODE;
  if (configured) return configured;
  throw new Error(
    `the conformance harness needs Node ${HARNESS_NODE_MAJOR} or newer and this is Node ${process.versions.node}: ` +
      `run the tests on Node ${HARNESS_NODE_MAJOR}, or point MCP_CONFORMANCE_NODE at one, ` +
      `e.g. MCP_CONFORMANCE_NODE="$(npx -y -p node@${HARNESS_NODE_MAJOR} which node)"`,
  );
}

/** The harness's exit code and everything it printed. */
export function runConformanceHarness(
  args: string[],
  workDir: string,
  timeoutMs: number,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(harnessNode(), [path.join(HARNESS_DIR, 'dist/index.js'), ...args], {
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
