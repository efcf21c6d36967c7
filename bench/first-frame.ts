/**
 * Budget: the chat's first frame. The REPL (`node dist/src/cli.js`, three stdio servers
 * configured) in a pseudo-terminal, timed from spawn to the first frame that shows the banner
 * and the status bar; the servers go on starting behind it.
 */
import { withBudgetWorld } from './lib/budget-world.js';
import { until } from './lib/harness.js';
import { PtySession } from './lib/pty.js';
import { CLI } from './lib/paths.js';
import { FIRST_FRAME, TERMINAL, type ReplWorld } from './lib/repl.js';
import { budget, benchmarkResult, type BenchmarkResult } from './lib/results.js';
import { roundTo, summarize } from './lib/stats.js';
import type { ScriptedModel } from './lib/model/server.js';

const WARMUP = 1;
const RUNS = 10;
const BUDGET_MS = 1000;

async function timeFirstFrame(world: ReplWorld, model: ScriptedModel): Promise<number> {
  const began = performance.now();
  const session = PtySession.start([process.execPath, CLI, '--config', world.configPath, '--host', model.url], {
    cwd: world.dir,
    env: world.env,
    ...TERMINAL,
  });
  try {
    await session.waitFor(FIRST_FRAME);
    const ms = performance.now() - began;
    // Keys sent before the chat reads them are taken for a paste: quit once it is up.
    await session.waitFor(/ollama ✓[^\n]*ready/);
    return ms;
  } finally {
    await until('the REPL to quit', () => (session.type('\u0004'), session.hasExited), 10_000, 100).finally(() =>
      session.close(),
    );
  }
}

export async function benchFirstFrame(): Promise<BenchmarkResult> {
  const began = performance.now();
  const samples = await withBudgetWorld({}, async (world, model) => {
    const times: number[] = [];
    for (let run = 0; run < WARMUP + RUNS; run++) {
      const ms = await timeFirstFrame(world, model);
      if (run >= WARMUP) times.push(ms);
    }
    return times;
  });
  const summary = summarize(samples);
  return benchmarkResult(
    {
      id: 'first-frame',
      title: 'Budget: the first frame of the chat',
      howMeasured:
        'The REPL (`node dist/src/cli.js --config … --host …`, calculator, file and research configured over stdio) in a ' +
        "pseudo-terminal (util-linux `script`, 120×40), timed from spawn until the terminal's output (escape sequences " +
        'stripped) shows the banner and the status bar under it; then it is quit with Ctrl+D once its servers are up.',
      warmup: `${WARMUP} start`,
      runs: `${RUNS} starts`,
    },
    [],
    began,
    {
      budgets: [
        budget({
          name: 'REPL spawn to first frame, three stdio servers',
          label: 'median',
          value: roundTo(summary.median, 0),
          op: '<=',
          limit: BUDGET_MS,
          unit: 'ms',
          why: 'past about a second, a command feels like it is loading rather than starting',
          summary,
          details: {
            'p25 / p75 / max ms': `${roundTo(summary.p25, 0)} / ${roundTo(summary.p75, 0)} / ${roundTo(summary.max, 0)}`,
          },
        }),
      ],
    },
  );
}
