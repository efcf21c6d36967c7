/**
 * Writes a run's results: bench/results.json for machines, bench/RESULTS.md for people
 * (a table per benchmark, how it was measured, and the hand-written record of fixes in
 * bench/fixes.md with their before/after figures).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BenchmarkResult, Check, Results, Row } from './results.js';
import { figure, format } from './format.js';
import { linesSection } from './lines-report.js';

function target(checkItem: Check): string {
  return `${checkItem.label} ${checkItem.op} ${checkItem.limit}${checkItem.unit ? ` ${checkItem.unit}` : ''}`;
}

function rowLine(item: Row): string {
  const targets = item.checks.map(target).join('; ') || '—';
  const measuredAgainst = item.checks.map((c) => `${c.label} ${format(c.value, c.unit)}`).join('; ');
  const cells = [
    item.name,
    figure(item.measured, item.unit),
    `${figure(item.baseline, item.unit)}<br>${item.baselineLabel}`,
    Number.isFinite(item.ratio) ? item.ratio.toFixed(2) : '—',
    targets,
    `${item.pass ? '**pass**' : '**miss**'}${measuredAgainst ? ` (${measuredAgainst})` : ''}`,
  ];
  return `| ${cells.join(' | ')} |`;
}

function section(benchmark: BenchmarkResult, index: number): string {
  const details = benchmark.rows
    .filter((item) => Object.keys(item.details).length > 0)
    .flatMap((item) => [
      `- ${item.name}:`,
      ...Object.entries(item.details).map(([name, value]) => `  - ${name}: ${value}`),
    ]);
  return [
    `## ${index + 1}. ${benchmark.title}: ${benchmark.pass ? 'pass' : 'miss'}`,
    '',
    '| figure | measured: median (p25–p75) | baseline: median (p25–p75) | ratio | target | result |',
    '|---|---|---|---|---|---|',
    ...benchmark.rows.map(rowLine),
    '',
    ...details,
    ...(details.length > 0 ? [''] : []),
    `How measured: ${benchmark.howMeasured} Warm-up: ${benchmark.warmup}. Runs: ${benchmark.runs}. ` +
      `Took ${(benchmark.durationMs / 1000).toFixed(0)} s.`,
    '',
  ].join('\n');
}

export function renderMarkdown(results: Results, fixes: string): string {
  const { machine } = results;
  return [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (bench/run.ts); do not edit by hand: the record of fixes comes from bench/fixes.md.',
    'Each figure is set beside a baseline measured in the same run, on the same machine; the ratio is median over median.',
    '',
    `Run ${results.date} on Node ${machine.node}, ${machine.platform}/${machine.arch}, ${machine.cpus} × ${machine.cpuModel}, ` +
      `${machine.totalMemoryMb} MB; load average at start ${machine.loadAverageAtStart.map((load) => load.toFixed(2)).join(' / ')}. ` +
      `Whole run: ${(results.wallTimeMs / 1000).toFixed(0)} s. Overall: ${results.pass ? 'every target met' : 'some targets missed'}.`,
    '',
    ...linesSection(results),
    ...results.benchmarks.map(section),
    fixes.trim(),
    '',
  ].join('\n');
}

export function writeResults(dir: string, results: Results): void {
  fs.writeFileSync(path.join(dir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeReport(dir, results);
}

/** Writes RESULTS.md from `results` and the current bench/fixes.md. */
export function writeReport(dir: string, results: Results): void {
  const fixesPath = path.join(dir, 'fixes.md');
  const fixes = fs.existsSync(fixesPath) ? fs.readFileSync(fixesPath, 'utf8') : '';
  fs.writeFileSync(path.join(dir, 'RESULTS.md'), renderMarkdown(results, fixes));
}
