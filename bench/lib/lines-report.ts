/**
 * RESULTS.md's budgets across Node lines: one row per budget, one column per line (the
 * machine's first), each cell the budget's figure and whether it met its limit there. Pure.
 */
import { format } from './format.js';
import type { BenchmarkResult, Check, Results } from './results.js';

const cell = (item: Check | undefined, pass = item?.pass): string =>
  item ? `${format(item.value, item.unit)} · ${pass ? 'pass' : '**miss**'}` : '—';

/** A budget's line, and one for each checked row of a budget benchmark (resuming a session). */
function figureRows(benchmark: BenchmarkResult, all: Results[]): string[] {
  const find = (run: Results): BenchmarkResult | undefined => run.benchmarks.find((other) => other.id === benchmark.id);
  const budgets = (benchmark.budgets ?? []).map((item) => {
    const cells = all.map((run) => cell(find(run)?.budgets?.find((b) => b.name === item.name)));
    return `| ${item.name} (${item.label}, limit ${item.op} ${format(item.limit, item.unit)}) | ${cells.join(' | ')} |`;
  });
  const rows = benchmark.rows.flatMap((item) => {
    const first = item.checks[0];
    if (!first) return [];
    const cells = all.map((run) => {
      const found = find(run)?.rows.find((r) => r.name === item.name);
      return cell(found?.checks[0], found?.pass);
    });
    return [
      `| ${item.name} (${first.label}, limit ${first.op} ${format(first.limit, first.unit)}) | ${cells.join(' | ')} |`,
    ];
  });
  return [...budgets, ...rows];
}

export function linesSection(results: Results): string[] {
  if (!results.lines) return [];
  const ran = results.lines.flatMap((run) => ('results' in run ? [run.results] : []));
  const all = [results, ...ran];
  const header = all.map((run, index) => `Node ${run.machine.node}${index === 0 ? ' (this machine)' : ''}`);
  const onLines = new Set(ran.flatMap((run) => run.benchmarks.map((benchmark) => benchmark.id)));
  const rows = results.benchmarks.filter((benchmark) => onLines.has(benchmark.id)).flatMap((b) => figureRows(b, all));
  // Other work on a shared machine shows in its load; each line's run says what it started under.
  const load = all.map((run) => (run.machine.loadAverageAtStart[0] ?? Number.NaN).toFixed(2));
  const notRun = results.lines.flatMap((run) => ('error' in run ? [`- Node ${run.line}: not run: ${run.error}`] : []));
  return [
    '## The budgets on every Node line',
    '',
    "The budget benchmarks again, one line after another, on each line's official binary from the npm registry.",
    '',
    `| budget | ${header.join(' | ')} |`,
    `|---|${all.map(() => '---').join('|')}|`,
    `| load average (1 min) when the line's run began | ${load.join(' | ')} |`,
    ...rows,
    '',
    ...(notRun.length > 0 ? [...notRun, ''] : []),
  ];
}
