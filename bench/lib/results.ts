/**
 * The shape of bench/results.json. A benchmark has some of: rows (a figure beside a baseline
 * measured in the same run, with checks; the quality benchmarks), budgets (a figure against
 * an absolute limit a user would feel), and the peer comparison (mcp-chat beside codex and
 * opencode on the same prompts). It passes when every row, budget and peer target does.
 */
import type { ClientFigures, Figure } from './peers/figures.js';
import { ratioOf, type Summary } from './stats.js';

export type Comparison = '<' | '<=' | '>=' | '>' | '==';

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
  /** Further figures worth reading beside the row. */
  details: Record<string, number | string>;
}

/** An absolute budget: one figure, its limit, and why a user would feel it. */
export interface Budget extends Check {
  name: string;
  why: string;
  summary?: Summary;
  details: Record<string, number | string>;
}

/** One prompt kind of the peer comparison: each client's figures, each peer's ratios to mcp-chat. */
export interface PeerKindRow {
  kind: string;
  prompt: string;
  clients: ClientFigures[];
  /** By peer id: peer median over mcp-chat median, per figure. */
  ratios: Record<string, Record<Figure, number>>;
}

export interface PeerComparison {
  /** Where the peers were installed (the benchmark's cache). */
  installDir: string;
  skipped: Array<{ client: string; reason: string }>;
  kinds: PeerKindRow[];
  /** The product owner's target: every ratio of every peer above 1, no peer skipped or failed. */
  targetMet: boolean;
}

export interface BenchmarkResult {
  id: string;
  title: string;
  /** One paragraph for RESULTS.md: what runs, what is timed, against what. */
  howMeasured: string;
  warmup: string;
  runs: string;
  rows: Row[];
  budgets?: Budget[];
  peers?: PeerComparison;
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
  /** The budget benchmarks on other Node lines (see node-lines.ts); absent in a child's own results. */
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
    case '>':
      return value > limit;
    case '==':
      return value === limit;
    default:
      return op satisfies never;
  }
}

export function check(label: string, value: number, op: Comparison, limit: number, unit = ''): Check {
  return { label, value, op, limit, unit, pass: compare(value, op, limit) };
}

export interface BudgetInput {
  name: string;
  /** The figure compared, e.g. `p99` or `median`. */
  label: string;
  value: number;
  op: Comparison;
  limit: number;
  unit: string;
  why: string;
  summary?: Summary;
  details?: Record<string, number | string>;
}

export function budget(input: BudgetInput): Budget {
  const { name, label, value, op, limit, unit, why, summary, details } = input;
  return {
    name,
    why,
    ...check(label, value, op, limit, unit),
    ...(summary ? { summary } : {}),
    details: details ?? {},
  };
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

/** A benchmark's result: it passes when every row, budget and peer target does; timed from `began`. */
export function benchmarkResult(
  info: BenchmarkInfo,
  rows: Row[],
  began: number,
  extra: { budgets?: Budget[]; peers?: PeerComparison } = {},
): BenchmarkResult {
  const pass =
    rows.every((item) => item.pass) &&
    (extra.budgets ?? []).every((item) => item.pass) &&
    (extra.peers?.targetMet ?? true);
  return { ...info, rows, ...extra, pass, durationMs: performance.now() - began };
}
