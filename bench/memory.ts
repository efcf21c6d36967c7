/**
 * Benchmark 5, memory: the REPL's resident memory once it has started, and after 100
 * turns of conversation (each with one tool call), in a pseudo-terminal against the fake
 * Ollama. Target: growth under 20 MB. Baseline: the same process's RSS after start.
 */
import { startToolCallingOllama } from './lib/fake-model.js';
import type { FakeOllama } from '../test/fakes/fake-ollama.js';
import { rssMb } from './lib/processes.js';
import { quitRepl, startRepl, submit } from './lib/repl.js';
import { check, row, benchmarkResult, type BenchmarkResult } from './lib/results.js';
import { roundTo, summarize } from './lib/stats.js';
import type { Workspace } from './lib/workspace.js';

const TURNS = 100;
const SESSIONS = 2;
const SAMPLE_EVERY = 10;
const TARGET_GROWTH_MB = 20;

interface Session {
  startMb: number;
  endMb: number;
  /** RSS every SAMPLE_EVERY turns, the start included. */
  trendMb: number[];
}

async function converse(workspace: Workspace, ollama: FakeOllama): Promise<Session> {
  const repl = await startRepl(workspace, ollama.url);
  try {
    const trendMb = [rssMb(repl.pid)];
    for (let turn = 1; turn <= TURNS; turn++) {
      const mark = repl.session.mark();
      await submit(repl, ollama, `turn ${turn}`);
      // The fake answers "turn <n> done: <result>." once the calculator has run.
      await repl.session.waitFor(new RegExp(`turn ${turn} done`), mark);
      if (turn % SAMPLE_EVERY === 0) trendMb.push(rssMb(repl.pid));
    }
    return { startMb: trendMb[0] ?? Number.NaN, endMb: trendMb.at(-1) ?? Number.NaN, trendMb };
  } finally {
    await quitRepl(repl);
  }
}

export async function benchMemory(workspace: Workspace): Promise<BenchmarkResult> {
  const began = performance.now();
  const ollama = await startToolCallingOllama();
  try {
    const sessions: Session[] = [];
    for (let run = 0; run < SESSIONS; run++) sessions.push(await converse(workspace, ollama));
    const growth = summarize(sessions.map((session) => session.endMb - session.startMb));
    const memory = row({
      name: `REPL RSS after ${TURNS} turns`,
      unit: 'MB',
      measured: summarize(sessions.map((session) => session.endMb)),
      baselineLabel: 'the same process after start',
      baseline: summarize(sessions.map((session) => session.startMb)),
      checks: () => [check('growth (median)', growth.median, '<', TARGET_GROWTH_MB, 'MB')],
      details: Object.fromEntries(
        sessions.map((session, index) => [`session ${index + 1}, RSS every ${SAMPLE_EVERY} turns (MB)`, session.trendMb.map((mb) => roundTo(mb, 1)).join(' → ')]),
      ),
    });
    return benchmarkResult({
      id: 'memory',
      title: 'Memory',
      howMeasured:
        `The REPL (\`node dist/src/cli.js\`, three servers) in a pseudo-terminal against the fake Ollama. RSS (VmRSS from ` +
        `/proc) of the mcp-chat process once the status bar says everything is ready, then after each ${SAMPLE_EVERY} turns; a ` +
        'turn is typed like a person would, and each one makes a `calculator.evaluate` call and gets an answer, awaited on ' +
        `screen. Servers are separate processes and not counted. ${SESSIONS} sessions; growth is after minus start, per session.`,
      warmup: 'none: the start is the baseline',
      runs: `${SESSIONS} sessions of ${TURNS} turns`,
    }, [memory], began);
  } finally {
    await ollama.close();
  }
}
