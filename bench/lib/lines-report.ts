/**
 * RESULTS.md's summary across Node lines: one row per figure, one column per line (the
 * machine's first), each cell the figure's median, its ratio to the same run's baseline and
 * whether it met its target on that line. The per-benchmark sections below it are the
 * machine's line in full.
 */
import { format } from './format.js';
import type { Results, Row } from './results.js';

function cell(item: Row | undefined): string {
  if (!item) return '—';
  const ratio = Number.isFinite(item.ratio) ? ` · ratio ${item.ratio.toFixed(2)}` : '';
  return `${format(item.measured.median, item.unit)}${ratio} · ${item.pass ? 'pass' : '**miss**'}`;
}

export function linesSection(results: Results): string[] {
  if (!results.lines) return [];
  const ran = results.lines.flatMap((run) => ('results' in run ? [run.results] : []));
  const all = [results, ...ran];
  const header = all.map((run, index) => `Node ${run.machine.node}${index === 0 ? ' (this machine)' : ''}`);
  const rows = results.benchmarks.flatMap((benchmark) =>
    benchmark.rows.map((item) => {
      const cells = all.map((run) =>
        cell(run.benchmarks.find((other) => other.id === benchmark.id)?.rows.find((r) => r.name === item.name)),
      );
      return `| ${benchmark.title}: ${item.name} | ${cells.join(' | ')} |`;
    }),
  );
  const notRun = results.lines.flatMap((run) => ('error' in run ? [`- Node ${run.line}: not run: ${run.error}`] : []));
  // A line's own benchmarks: the machine's `pass` also counts the other lines.
  const passed = all.filter((run) => run.benchmarks.every((benchmark) => benchmark.pass)).length;
  return [
    '## Every Node line',
    '',
    `The same benchmarks, one after another, on each line's official binary from the npm registry; ` +
      `${passed} of ${all.length} lines met every target.`,
    '',
    `| figure | ${header.join(' | ')} |`,
    `|---|${all.map(() => '---').join('|')}|`,
    ...rows,
    '',
    ...(notRun.length > 0 ? [...notRun, ''] : []),
  ];
}
