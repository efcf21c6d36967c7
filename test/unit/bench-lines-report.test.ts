/**
 * RESULTS.md's summary across Node lines (bench/lib/lines-report.ts): each line is counted by its
 * own benchmarks, the machine's too, whose results also say whether the whole run passed.
 */
import { describe, expect, it } from 'vitest';
import { linesSection } from '../../bench/lib/lines-report.js';
import { check, row, benchmarkResult, type Results } from '../../bench/lib/results.js';
import { summarize } from '../../bench/lib/stats.js';

/** A run of one benchmark whose one row has `ratio` against a target of at most 1.10. */
function runWithRatio(node: string, ratio: number, lines?: Results['lines']): Results {
  const startup = row({
    name: 'start-up',
    unit: 'ms',
    measured: summarize([100 * ratio]),
    baselineLabel: 'a script',
    baseline: summarize([100]),
    checks: (value) => [check('ratio', value, '<=', 1.1)],
  });
  const benchmark = benchmarkResult(
    { id: 'startup', title: 'Start-up', howMeasured: '', warmup: '', runs: '' },
    [startup],
    performance.now(),
  );
  const ownPass = benchmark.pass;
  return {
    date: '2026-11-28T00:00:00.000Z',
    machine: {
      node,
      platform: 'linux',
      arch: 'x64',
      cpuModel: 'cpu',
      cpus: 2,
      totalMemoryMb: 1,
      loadAverageAtStart: [0, 0, 0],
    },
    wallTimeMs: 1,
    pass: ownPass && (lines ?? []).every((line) => 'results' in line && line.results.pass),
    benchmarks: [benchmark],
    ...(lines ? { lines } : {}),
  };
}

describe('the summary across Node lines', () => {
  it("counts the machine's line by its own benchmarks when another line missed a target", () => {
    const results = runWithRatio('20.20.2', 1.05, [{ line: '26', results: runWithRatio('26.10.0', 1.14) }]);
    expect(results.pass).toBe(false);
    const text = linesSection(results).join('\n');
    expect(text).toContain('1 of 2 lines met every target');
    expect(text).toContain('| Start-up: start-up | 105 ms · ratio 1.05 · pass | 114 ms · ratio 1.14 · **miss** |');
  });

  it('counts every line when all met their targets, and none when none did', () => {
    const met = runWithRatio('20.20.2', 1.0, [{ line: '22', results: runWithRatio('22.23.3', 1.02) }]);
    expect(linesSection(met).join('\n')).toContain('2 of 2 lines met every target');
    const missed = runWithRatio('20.20.2', 1.2, [{ line: '22', results: runWithRatio('22.23.3', 1.3) }]);
    expect(linesSection(missed).join('\n')).toContain('0 of 2 lines met every target');
  });
});
