/**
 * Benchmark 1, start-up: `mcp-chat tools --json` with the three local servers, spawn to
 * exit, against a minimal script that starts the same three servers in parallel with bare SDK
 * clients (spawn to every `tools/list` answer, closed, exit), both measured in the same rounds.
 * Target: ratio <= 1.15.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connectBare } from './lib/bare-client.js';
import { alternate, timed, type Rounds } from './lib/harness.js';
import { assertSucceeded, reapedChildrenCpuMs, timeNode } from './lib/processes.js';
import { check, row, benchmarkResult, type BenchmarkResult } from './lib/results.js';
import { roundTo, summarize } from './lib/stats.js';
import { BASELINE_DIR, CLI, type Workspace } from './lib/workspace.js';

const ROUNDS: Rounds = { warmup: 2, runs: 24 };
const TARGET_RATIO = 1.15;

/** Side figures gathered during the rounds, to explain the ratio. */
class Diagnostics {
  readonly samples = new Map<string, number[]>();

  add(name: string, value: number): void {
    this.samples.set(name, [...(this.samples.get(name) ?? []), value]);
  }

  medians(): Record<string, number> {
    return Object.fromEntries([...this.samples].map(([name, values]) => [name, roundTo(summarize(values).median, 1)]));
  }
}

async function timeToolsCommand(workspace: Workspace, diagnostics: Diagnostics): Promise<number[]> {
  const cpuBefore = reapedChildrenCpuMs();
  const run = await timeNode([CLI, '--config', workspace.configPath, 'tools', '--json'], {
    cwd: workspace.dir,
    env: workspace.env(),
  });
  assertSucceeded(run, 'mcp-chat tools --json');
  diagnostics.add('`tools --json`: CPU time of its process tree, median ms', reapedChildrenCpuMs() - cpuBefore);
  const servers = new Set((JSON.parse(run.stdout) as Array<{ server: string }>).map((tool) => tool.server));
  if (servers.size !== 3) throw new Error(`mcp-chat tools listed ${servers.size} servers, not 3:\n${run.stderr}`);
  return [run.ms];
}

/**
 * The baseline: a minimal script process (`bench/baseline/servers-by-hand.ts`, bundled as mcp-chat
 * is) that starts the three servers at once with bare SDK clients, lists their tools and closes
 * them: Node's start, the SDK's loading and the servers, with nothing of mcp-chat's own.
 */
async function timeServersScript(workspace: Workspace, diagnostics: Diagnostics): Promise<number[]> {
  const serversPath = path.join(workspace.dir, 'servers-by-hand.json');
  if (!fs.existsSync(serversPath)) fs.writeFileSync(serversPath, JSON.stringify(workspace.entries));
  const cpuBefore = reapedChildrenCpuMs();
  const script = assertSucceeded(
    await timeNode([path.join(BASELINE_DIR, 'servers-by-hand.js'), serversPath], {
      cwd: workspace.dir,
      env: workspace.env(),
    }),
    'servers-by-hand',
  );
  diagnostics.add('the script: CPU time of its process tree, median ms', reapedChildrenCpuMs() - cpuBefore);
  await timeSideFigures(workspace, diagnostics);
  return [script.ms];
}

/**
 * What the baseline is made of, to explain the ratio: the same start-up inside the benchmark's own
 * process (no Node start, SDK already loaded), and each server alone, one after the other, so none
 * competes with another for the CPU.
 */
async function timeSideFigures(workspace: Workspace, diagnostics: Diagnostics): Promise<void> {
  const cpuBefore = reapedChildrenCpuMs();
  const ms = await timed(async () => {
    const connections = await Promise.all(workspace.entries.map((entry) => connectBare(entry)));
    await Promise.all(connections.map((connection) => connection.close()));
  });
  diagnostics.add('the same inside the benchmark process (no Node start, SDK loaded), spawn to closed, median ms', ms);
  diagnostics.add('the three servers alone: CPU time, median ms', reapedChildrenCpuMs() - cpuBefore);
  for (const entry of workspace.entries) {
    const connection = await connectBare(entry);
    await connection.close();
    diagnostics.add(`${entry.name} alone, spawn to tools/list, median ms`, connection.startMs);
  }
}

export async function benchStartup(workspace: Workspace): Promise<BenchmarkResult> {
  const began = performance.now();
  const diagnostics = new Diagnostics();
  const samples = await alternate(
    ROUNDS,
    () => timeToolsCommand(workspace, diagnostics),
    () => timeServersScript(workspace, diagnostics),
  );
  const startup = row({
    name: '`mcp-chat tools --json`, 3 servers',
    unit: 'ms',
    measured: summarize(samples.measured),
    baselineLabel: 'a minimal script: the three servers in parallel, bare SDK clients, spawn to exit',
    baseline: summarize(samples.baseline),
    checks: (ratio) => [check('ratio', ratio, '<=', TARGET_RATIO)],
    details: { ...diagnostics.medians(), 'CPU cores': os.availableParallelism() },
  });
  return benchmarkResult(
    {
      id: 'startup',
      title: 'Start-up',
      howMeasured:
        'Wall time from spawning `node dist/src/cli.js tools --json` (config naming calculator, file and research) to its exit: ' +
        'Node start-up, loading, server start-up, listing and shutdown. Baseline: a minimal script process ' +
        "(`bench/baseline/servers-by-hand.ts`, bundled as mcp-chat is) that spawns the same three servers at once with the SDK's " +
        '`Client` + `StdioClientTransport` (one client each), waits for every `tools/list` answer and closes them, spawn to exit. ' +
        'The two alternate round by round. Side figures: the same start-up inside the benchmark process (no Node start, the SDK ' +
        'already loaded), and each server alone. CPU times are those of the whole process tree (the servers and their children included), ' +
        "from the kernel's accounting of reaped children; warm-up rounds count in the side figures.",
      warmup: `${ROUNDS.warmup} rounds`,
      runs: `${ROUNDS.runs} rounds`,
    },
    [startup],
    began,
  );
}
