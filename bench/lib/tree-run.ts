/**
 * Runs one client to completion as a user would (spawned, stdin closed, output piped) and
 * measures it from outside: wall time from spawn to exit, CPU time of its whole process tree
 * (the kernel's count for the children waited for), and the tree's peak resident memory,
 * sampled from /proc while it runs. Processes of the tree still running after it exits are
 * ended and counted: a client that leaves servers behind is not a fast one.
 */
import { spawn } from 'node:child_process';
import { isRunning, processTree, reapedChildrenCpuMs, treeRssMb } from './processes.js';

export interface Launch {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

export interface TreeRun {
  /** `performance.now()` at spawn, to time events seen elsewhere (the model's requests) against. */
  spawnedAt: number;
  wallMs: number;
  cpuMs: number;
  peakRssMb: number;
  code: number | null;
  stdout: string;
  stderr: string;
  /** Processes of the tree still running once the client had exited (ended by the runner). */
  leftRunning: number;
  timedOut: boolean;
}

/** How often the tree is sampled: often enough for a peak that lasts a moment, rare enough to cost little. */
const SAMPLE_EVERY_MS = 20;

function endLeftovers(seen: Set<number>, root: number): number {
  const left = [...seen].filter((pid) => pid !== root && isRunning(pid));
  for (const pid of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
  return left.length;
}

export function runTree(launch: Launch, timeoutMs: number): Promise<TreeRun> {
  const cpuBefore = reapedChildrenCpuMs();
  const spawnedAt = performance.now();
  const child = spawn(launch.command, launch.args, {
    cwd: launch.cwd,
    env: launch.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (bytes: Buffer) => (out.stdout += bytes.toString('utf8')));
  child.stderr.on('data', (bytes: Buffer) => (out.stderr += bytes.toString('utf8')));
  const seen = new Set<number>();
  let peakRssMb = 0;
  const sample = (): void => {
    if (child.pid === undefined || child.exitCode !== null) return;
    const tree = processTree(child.pid);
    for (const pid of tree) seen.add(pid);
    peakRssMb = Math.max(peakRssMb, treeRssMb(tree));
  };
  const sampler = setInterval(sample, SAMPLE_EVERY_MS);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, timeoutMs);
  return new Promise((resolve, reject) => {
    let exitedAt = 0;
    child.once('error', reject);
    child.once('exit', () => {
      exitedAt = performance.now();
      clearInterval(sampler);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      const cpuMs = reapedChildrenCpuMs() - cpuBefore;
      const leftRunning = endLeftovers(seen, child.pid ?? -1);
      resolve({ spawnedAt, wallMs: exitedAt - spawnedAt, cpuMs, peakRssMb, code, ...out, leftRunning, timedOut });
    });
  });
}
