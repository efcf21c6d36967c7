/**
 * RESULTS.md's budgets across Node lines: one row per budget, one column per line (the
 * machine's first), each cell the budget's figure and whether it met its limit there. Pure.
 */
import { format } from './format.js';
import type { Budget, Results } from './results.js';

const cell = (item: Budget | undefined): string =>
  item ? `${format(item.value, item.unit)} · ${item.pass ? 'pass' : '**miss**'}` : '—';

export function linesSection(results: Results): string[] {
  if (!results.lines) return [];
  const ran = results.lines.flatMap((run) => ('results' in run ? [run.results] : []));
  const all = [results, ...ran];
  const header = all.map((run, index) => `Node ${run.machine.node}${index === 0 ? ' (this machine)' : ''}`);
  const budgets = results.benchmarks;
  const rows = budgets.flatMap((benchmark) =>
    (benchmark.budgets ?? []).map((item) => {
      const cells = all.map((run) =>
        cell(run.benchmarks.find((other) => other.id === benchmark.id)?.budgets?.find((b) => b.name === item.name)),
      );
      return `| ${item.name} (${item.label}, limit ${item.op} ${format(item.limit, item.unit)}) | ${cells.join(' | ')} |`;
    }),
  );
  const notRun = results.lines.flatMap((run) => ('error' in run ? [`- Node ${run.line}: not run: ${run.error}`] : []));
  return [
    '## The budgets on every Node line',
    '',
    "The budget benchmarks again, one line after another, on each line's official binary from the npm registry.",
    '',
    `| budget | ${header.join(' | ')} |`,
    `|---|${all.map(() => '---').join('|')}|`,
    ...rows,
    '',
    ...(notRun.length > 0 ? [...notRun, ''] : []),
  ];
}
