/**
 * Runs one client to completion as a user would (spawned, stdin closed, output piped) and
 * measures it from outside: wall time from its start to its exit, CPU time of its whole process
 * tree, and the tree's peak resident memory, sampled from /proc while it runs. The client runs
 * under bench/lib/subreaper.py, which every process of the tree is handed to when its parent
 * exits: a client that ends its servers without waiting for them, or leaves them running, is
 * counted with them (left running, they are ended a moment after the client exits).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { BENCH_DIR } from './paths.js';
import { processTree, treeRssMb } from './processes.js';

export interface Launch {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

export interface TreeRun {
  /** `performance.now()` at the client's start, to time events seen elsewhere (the model's requests) against. */
  spawnedAt: number;
  wallMs: number;
  cpuMs: number;
  peakRssMb: number;
  code: number | null;
  stdout: string;
  stderr: string;
  /** Processes of the tree still running a moment after the client had exited (then ended). */
  leftRunning: number;
  timedOut: boolean;
}

/** How often the tree is sampled: often enough for a peak that lasts a moment, rare enough to cost little. */
const SAMPLE_EVERY_MS = 20;
const SUBREAPER = path.join(BENCH_DIR, 'lib/subreaper.py');

/** What the subreaper says on its report pipe, as far as it has said it. */
interface Report {
  startedAt?: number;
  exitedAt?: number;
  left?: number;
  cpuMs?: number;
}

/** Reads the subreaper's lines (`start`, `exit <code>`, `left <n>`, `cpu <ms>`) into `report` as they come. */
function readReport(pipe: NodeJS.ReadableStream, report: Report, onExit: () => void): void {
  let pending = '';
  pipe.on('data', (bytes: Buffer) => {
    pending += bytes.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const [word, value] = line.split(' ');
      if (word === 'start') report.startedAt = performance.now();
      else if (word === 'exit') {
        report.exitedAt = performance.now();
        onExit();
      } else if (word === 'left') report.left = Number(value);
      else if (word === 'cpu') report.cpuMs = Number(value);
    }
  });
}

export function runTree(launch: Launch, timeoutMs: number): Promise<TreeRun> {
  const child = spawn('python3', [SUBREAPER, launch.command, ...launch.args], {
    cwd: launch.cwd,
    env: launch.env,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout?.on('data', (bytes: Buffer) => (out.stdout += bytes.toString('utf8')));
  child.stderr?.on('data', (bytes: Buffer) => (out.stderr += bytes.toString('utf8')));
  let peakRssMb = 0;
  const report: Report = {};
  // The subreaper itself is not the client: the tree is what runs below it.
  const sample = (): void => {
    if (child.pid === undefined || report.exitedAt !== undefined) return;
    peakRssMb = Math.max(peakRssMb, treeRssMb(processTree(child.pid).slice(1)));
  };
  const sampler = setInterval(sample, SAMPLE_EVERY_MS);
  readReport(child.stdio[3] as NodeJS.ReadableStream, report, () => clearInterval(sampler));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    for (const pid of child.pid === undefined ? [] : processTree(child.pid).reverse()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    }
  }, timeoutMs);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      clearInterval(sampler);
      const { startedAt, exitedAt, cpuMs, left } = report;
      if (!timedOut && (startedAt === undefined || exitedAt === undefined || cpuMs === undefined))
        return reject(new Error(`the subreaper (python3 ${SUBREAPER}) did not report: ${out.stderr.slice(-300)}`));
      const spawnedAt = startedAt ?? 0;
      resolve({
        spawnedAt,
        wallMs: (exitedAt ?? performance.now()) - spawnedAt,
        cpuMs: cpuMs ?? Number.NaN,
        peakRssMb,
        code,
        ...out,
        leftRunning: left ?? 0,
        timedOut,
      });
    });
  });
}
