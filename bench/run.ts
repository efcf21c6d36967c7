/**
 * `npm run bench`: the peer rows, the budgets and the quality benchmarks, in turn, on the build,
 * then the budgets again on each other Node line users run (`--nodes 22,24,26` by default,
 * `--nodes none` for none); writes bench/results.json and bench/RESULTS.md. `--only a,b` runs
 * some of them (on the machine's Node unless `--nodes` is given) and prints their results, or
 * writes them to `--out file`, without touching the recorded files; `--report` only writes
 * RESULTS.md again from results.json.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCHMARKS, BUDGET_BENCHMARKS } from './benchmarks.js';
import { DEFAULT_LINES, runOnLines } from './lib/node-lines.js';
import { BENCH_DIR } from './lib/paths.js';
import { progressLine, writeReport, writeResults } from './lib/report.js';
import type { BenchmarkResult, MachineInfo, Results } from './lib/results.js';
import { createWorkspace } from './lib/workspace.js';

function machine(): MachineInfo {
  const cpus = os.cpus();
  return {
    node: process.versions.node,
    platform: os.platform(),
    arch: os.arch(),
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cpus: cpus.length,
    totalMemoryMb: Math.round(os.totalmem() / 2 ** 20),
    loadAverageAtStart: os.loadavg(),
  };
}

const USAGE = `usage: npm run bench [-- [--only NAMES] [--nodes LINES] [--out FILE] | --report | --help]
  (none)         every benchmark, then the budgets on Node ${DEFAULT_LINES.join(', ')}; writes bench/results.json and bench/RESULTS.md
  --only a,b     only these, printed (or written to --out), the recorded files left alone; names: ${Object.keys(BENCHMARKS).join(', ')}
  --nodes 22,24  the Node lines to run the budgets on again, or none
  --out FILE     the results as JSON in FILE
  --report       only write bench/RESULTS.md again from bench/results.json`;

/** A mistake in the command line: said in a line, not with a stack. */
class UsageError extends Error {}

const VALUE_FLAGS = new Set(['--only', '--nodes', '--out']);

/** Every argument is one this program takes: a mistyped flag must not start the full run, which rewrites the results. */
function checkArguments(argv: string[]): void {
  for (let at = 0; at < argv.length; at++) {
    const arg = argv[at] ?? '';
    if (VALUE_FLAGS.has(arg)) at++;
    else if (arg !== '--report') throw new UsageError(`unknown argument ${JSON.stringify(arg)}\n${USAGE}`);
  }
}

/** The value after `flag`, if the flag is given. */
function option(argv: string[], flag: string): string | undefined {
  const at = argv.indexOf(flag);
  return at < 0 ? undefined : (argv[at + 1] ?? '');
}

/** Other Node lines to run the budgets on: all of them for a full run, none for `--only` unless named. */
function otherLines(argv: string[], full: boolean): string[] {
  const nodes = option(argv, '--nodes');
  if (nodes === undefined) return full ? DEFAULT_LINES : [];
  if (nodes === 'none') return [];
  const lines = nodes.split(',').filter(Boolean);
  if (lines.length === 0 || lines.some((line) => !/^\d+$/.test(line)))
    throw new UsageError('--nodes takes major versions, such as 22,24,26, or none');
  return lines;
}

function selected(argv: string[]): string[] {
  const only = option(argv, '--only');
  if (only === undefined) return Object.keys(BENCHMARKS);
  const names = only.split(',').filter(Boolean);
  const unknown = names.filter((name) => !(name in BENCHMARKS));
  if (names.length === 0 || unknown.length > 0)
    throw new UsageError(`--only takes names from: ${Object.keys(BENCHMARKS).join(', ')}`);
  return names;
}

async function runSelected(names: string[]): Promise<BenchmarkResult[]> {
  const workspace = createWorkspace();
  const results: BenchmarkResult[] = [];
  try {
    for (const name of names) {
      process.stdout.write(`${name}…\n`);
      const benchmark = BENCHMARKS[name];
      if (!benchmark) throw new Error(`no benchmark ${name}`);
      const result = await benchmark(workspace);
      results.push(result);
      process.stdout.write(`${progressLine(result)}\n`);
    }
  } finally {
    workspace.remove();
  }
  return results;
}

async function main(): Promise<void> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  checkArguments(process.argv.slice(2));
  if (process.argv.includes('--report')) {
    writeReport(BENCH_DIR, JSON.parse(fs.readFileSync(path.join(BENCH_DIR, 'results.json'), 'utf8')) as Results);
    return;
  }
  const argv = process.argv.slice(2);
  const names = selected(argv);
  const full = option(argv, '--only') === undefined;
  const lines = otherLines(argv, full);
  const began = performance.now();
  const info = machine();
  const benchmarks = await runSelected(names);
  const onLines = names.filter((name) => BUDGET_BENCHMARKS.includes(name));
  const runs =
    lines.length > 0 && onLines.length > 0 ? await runOnLines(lines, process.argv[1] ?? '', onLines) : undefined;
  const results: Results = {
    date: new Date().toISOString(),
    machine: info,
    wallTimeMs: performance.now() - began,
    pass:
      benchmarks.every((benchmark) => benchmark.pass) &&
      (runs ?? []).every((run) => 'results' in run && run.results.pass),
    benchmarks,
    ...(runs ? { lines: runs } : {}),
  };
  const out = option(argv, '--out');
  if (out !== undefined) {
    fs.writeFileSync(out, JSON.stringify(results));
  } else if (full) {
    writeResults(BENCH_DIR, results);
    process.stdout.write(
      `wrote bench/results.json and bench/RESULTS.md in ${(results.wallTimeMs / 1000).toFixed(0)} s\n`,
    );
  } else {
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  }
}

try {
  await main();
} catch (error) {
  // A benchmark that fails still shows its stack.
  if (!(error instanceof UsageError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 2;
}
