/**
 * The shape of bench/results.json: each benchmark has rows, each row a measured figure,
 * the baseline measured beside it in the same run, their ratio and the checks against
 * the targets of issue 7. A row passes only when every one of its checks does.
 */
import { ratioOf, type Summary } from './stats.js';

export type Comparison = '<' | '<=' | '>=' | '==';

export interface Check {
  /** What is compared, e.g. `ratio` or `p50 latency`. */
  label: string;
  value: number;
  op: Comparison;
  limit: number;
  unit: string;
  pass: boolean;
}

export interface Row {
  name: string;
  unit: string;
  measured: Summary;
  baselineLabel: string;
  baseline: Summary;
  /** `measured.median / baseline.median`. */
  ratio: number;
  checks: Check[];
  pass: boolean;
  /** Further figures worth reading beside the row (p99, CPU use, tokens lost…). */
  details: Record<string, number | string>;
}

export interface BenchmarkResult {
  id: string;
  title: string;
  /** One paragraph for RESULTS.md: what runs, what is timed, against what. */
  howMeasured: string;
  warmup: string;
  runs: string;
  rows: Row[];
  pass: boolean;
  durationMs: number;
}

export interface MachineInfo {
  node: string;
  platform: string;
  arch: string;
  cpuModel: string;
  cpus: number;
  totalMemoryMb: number;
  loadAverageAtStart: number[];
}

export interface Results {
  date: string;
  machine: MachineInfo;
  wallTimeMs: number;
  pass: boolean;
  benchmarks: BenchmarkResult[];
  /** The same benchmarks on other Node lines (see node-lines.ts); absent in a child's own results. */
  lines?: LineRun[];
}

/** One other Node line's run: its results, or why it could not run. */
export type LineRun = { line: string; results: Results } | { line: string; error: string };

function compare(value: number, op: Comparison, limit: number): boolean {
  switch (op) {
    case '<':
      return value < limit;
    case '<=':
      return value <= limit;
    case '>=':
      return value >= limit;
    case '==':
      return value === limit;
  }
}

export function check(label: string, value: number, op: Comparison, limit: number, unit = ''): Check {
  return { label, value, op, limit, unit, pass: compare(value, op, limit) };
}

export interface RowInput {
  name: string;
  unit: string;
  measured: Summary;
  baselineLabel: string;
  baseline: Summary;
  /** Builds the checks from the ratio, so a ratio target cannot drift from the reported ratio. */
  checks: (ratio: number) => Check[];
  details?: Record<string, number | string>;
}

export function row(input: RowInput): Row {
  const ratio = ratioOf(input.measured, input.baseline);
  const checks = input.checks(ratio);
  const { name, unit, measured, baselineLabel, baseline } = input;
  return {
    name,
    unit,
    measured,
    baselineLabel,
    baseline,
    ratio,
    checks,
    pass: checks.every((c) => c.pass),
    details: input.details ?? {},
  };
}

export type BenchmarkInfo = Pick<BenchmarkResult, 'id' | 'title' | 'howMeasured' | 'warmup' | 'runs'>;

/** A benchmark's result from its rows: it passes when every row does; timed from `began`. */
export function benchmarkResult(info: BenchmarkInfo, rows: Row[], began: number): BenchmarkResult {
  return { ...info, rows, pass: rows.every((item) => item.pass), durationMs: performance.now() - began };
}
