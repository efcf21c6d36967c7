/**
 * Writes a run's results: bench/results.json for machines, bench/RESULTS.md for people (the
 * machine, the peer tables, the budgets with pass or miss, the quality rows, each benchmark's
 * method, and the budgets on every Node line), and the one line each benchmark prints as it ends.
 */
import fs from 'node:fs';
import path from 'node:path';
import { figure, format } from './format.js';
import { linesSection } from './lines-report.js';
import { peerSection, worstRatios } from './report-peers.js';
import type { BenchmarkResult, Budget, Check, MachineInfo, Results, Row } from './results.js';

function target(checkItem: Check): string {
  return `${checkItem.label} ${checkItem.op} ${format(checkItem.limit, checkItem.unit)}`;
}

const verdict = (pass: boolean): string => (pass ? '**pass**' : '**miss**');

function rowLine(item: Row): string {
  const measuredAgainst = item.checks.map((c) => `${c.label} ${format(c.value, c.unit)}`).join('; ');
  const cells = [
    item.name,
    figure(item.measured, item.unit),
    `${figure(item.baseline, item.unit)}<br>${item.baselineLabel}`,
    item.checks.map(target).join('; ') || '—',
    `${verdict(item.pass)}${measuredAgainst ? ` (${measuredAgainst})` : ''}`,
  ];
  return `| ${cells.join(' | ')} |`;
}

function budgetLine(item: Budget): string {
  const value = `${item.label} ${format(item.value, item.unit)}`;
  const cells = [item.name, value, target(item), verdict(item.pass), item.why];
  return `| ${cells.join(' | ')} |`;
}

function detailLines(entries: Array<[string, Record<string, number | string>]>): string[] {
  return entries
    .filter(([, details]) => Object.keys(details).length > 0)
    .flatMap(([name, details]) => [
      `- ${name}:`,
      ...Object.entries(details).map(([key, value]) => `  - ${key}: ${value}`),
    ]);
}

/** A budget holds on some machine: each budget table says which. */
export const machineLabel = (machine: MachineInfo): string =>
  `${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}`;

function section(benchmark: BenchmarkResult, machine: MachineInfo): string[] {
  const budgets = benchmark.budgets ?? [];
  const details = detailLines([
    ...benchmark.rows.map((item): [string, Row['details']] => [item.name, item.details]),
    ...budgets.map((item): [string, Budget['details']] => [item.name, item.details]),
  ]);
  return [
    `## ${benchmark.title}: ${benchmark.pass ? 'pass' : 'miss'}`,
    '',
    ...(benchmark.peers ? peerSection(benchmark.peers) : []),
    ...(budgets.length > 0
      ? [
          `Measured on ${machineLabel(machine)}.`,
          '',
          '| budget | measured | limit | result | why this limit |',
          '|---|---|---|---|---|',
          ...budgets.map(budgetLine),
          '',
        ]
      : []),
    ...(benchmark.rows.length > 0
      ? [
          '| figure | measured: median (p25–p75) | baseline: median (p25–p75) | target | result |',
          '|---|---|---|---|---|',
          ...benchmark.rows.map(rowLine),
          '',
        ]
      : []),
    ...details,
    ...(details.length > 0 ? [''] : []),
    `How measured: ${benchmark.howMeasured} Warm-up: ${benchmark.warmup}. Runs: ${benchmark.runs}. ` +
      `Took ${(benchmark.durationMs / 1000).toFixed(0)} s.`,
    '',
  ];
}

export function renderMarkdown(results: Results): string {
  const { machine } = results;
  return [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (bench/run.ts); do not edit by hand. What was changed because of these',
    'figures, and why, is in [docs/performance.md](../docs/performance.md).',
    '',
    `Run ${results.date} on Node ${machine.node}, ${machine.platform}/${machine.arch}, ${machine.cpus} × ${machine.cpuModel}, ` +
      `${machine.totalMemoryMb} MB; load average at start ${machine.loadAverageAtStart.map((load) => load.toFixed(2)).join(' / ')}. ` +
      `Whole run: ${(results.wallTimeMs / 1000).toFixed(0)} s. Overall: ${results.pass ? 'every target met' : 'some targets missed'}.`,
    '',
    ...results.benchmarks.flatMap((benchmark) => section(benchmark, machine)),
    ...linesSection(results),
  ].join('\n');
}

export function writeResults(dir: string, results: Results): void {
  fs.writeFileSync(path.join(dir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeReport(dir, results);
}

export function writeReport(dir: string, results: Results): void {
  fs.writeFileSync(path.join(dir, 'RESULTS.md'), renderMarkdown(results));
}

/** What a benchmark prints when it ends: pass or miss, its time, and its headline figures. */
export function progressLine(result: BenchmarkResult): string {
  const parts = [
    ...(result.peers
      ? Object.entries(worstRatios(result.peers)).map(([peer, ratio]) => `${peer}: lowest ratio ${ratio.toFixed(2)}`)
      : []),
    ...(result.peers?.skipped ?? []).map((item) => `${item.client} skipped`),
    ...(result.budgets ?? []).map(
      (item) => `${item.name}: ${format(item.value, item.unit)} ${item.pass ? 'pass' : 'MISS'}`,
    ),
    ...result.rows.map((item) => `${item.name}: ${item.pass ? 'pass' : 'MISS'}`),
  ];
  return `${result.pass ? 'pass' : 'MISS'} in ${(result.durationMs / 1000).toFixed(0)} s (${parts.join('; ')})`;
}
