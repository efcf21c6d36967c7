/**
 * Budget: `ask` to its first model request. `mcp-chat ask` with three stdio servers configured,
 * timed from spawn to the scripted model receiving `/api/chat`: start-up, the servers' start and
 * tool listing, and building the request, everything a one-shot prompt waits for before the model
 * can start.
 */
import { withBudgetWorld } from './lib/budget-world.js';
import { judgeRun } from './lib/peers/verdict.js';
import { modelFigures } from './lib/peers/figures.js';
import { CLI } from './lib/paths.js';
import { PROMPTS } from './lib/model/script.js';
import { budget, benchmarkResult, type BenchmarkResult } from './lib/results.js';
import { roundTo, summarize } from './lib/stats.js';
import { runTree } from './lib/tree-run.js';

const WARMUP = 1;
const RUNS = 10;
const BUDGET_MS = 500;

export async function benchAskFirstRequest(): Promise<BenchmarkResult> {
  const began = performance.now();
  const samples = await withBudgetWorld({}, async (world, model) => {
    const times: number[] = [];
    for (let run = 0; run < WARMUP + RUNS; run++) {
      const mark = model.requests.length;
      const args = [CLI, 'ask', '--yes', '--config', world.configPath, '--host', model.url, PROMPTS['one-call'].text];
      const result = await runTree({ command: process.execPath, args, cwd: world.dir, env: world.env }, 60_000);
      const requests = model.requests.slice(mark);
      const verdict = judgeRun('one-call', result, requests);
      if (!verdict.ok) throw new Error(`mcp-chat ask failed: ${verdict.reason}`);
      if (run >= WARMUP) times.push(modelFigures(result.spawnedAt, requests).firstRequestMs);
    }
    return times;
  });
  const summary = summarize(samples);
  return benchmarkResult(
    {
      id: 'ask-first-request',
      title: 'Budget: `ask` to its first model request',
      howMeasured:
        '`node dist/src/cli.js ask --yes --config … --host … "<one tool call prompt>"` with calculator, file and research ' +
        'configured over stdio, run as a process with its output piped; timed from spawn until the scripted model receives ' +
        'its first `/api/chat` request. Each run must also do the work (the call made, the answer printed).',
      warmup: `${WARMUP} run`,
      runs: `${RUNS} runs`,
    },
    [],
    began,
    {
      budgets: [
        budget({
          name: '`ask` spawn to first model request, three stdio servers',
          label: 'median',
          value: roundTo(summary.median, 0),
          op: '<=',
          limit: BUDGET_MS,
          unit: 'ms',
          why: 'a one-shot prompt in a script or a shell loop pays this on every call, before the model even starts',
          summary,
          details: {
            'p25 / p75 / max ms': `${roundTo(summary.p25, 0)} / ${roundTo(summary.p75, 0)} / ${roundTo(summary.max, 0)}`,
          },
        }),
      ],
    },
  );
}
