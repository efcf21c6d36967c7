/**
 * Benchmark 5, memory: the REPL's resident memory once it has started, and after 300
 * turns of conversation (each with one tool call), in a pseudo-terminal against the fake
 * Ollama; and what it keeps, as the live heap after a full collection. Targets: RSS after
 * 300 turns under 1.6 times RSS after start; the live heap flat once the session has
 * settled, under 1 MB of growth from turn 50 to turn 300.
 */
import fs from 'node:fs';
import path from 'node:path';
import { startToolCallingOllama } from './lib/fake-model.js';
import type { FakeOllama } from '../test/fakes/fake-ollama.js';
import { until } from './lib/harness.js';
import type { HeapSample } from './lib/heap-probe.js';
import { rssMb } from './lib/processes.js';
import { quitRepl, startRepl, submit, type NodeExtras, type Repl } from './lib/repl.js';
import { check, row, benchmarkResult, type BenchmarkResult, type Row } from './lib/results.js';
import { roundTo, summarize } from './lib/stats.js';
import type { Workspace } from './lib/workspace.js';

const TURNS = 300;
// The RSS at start swings by 20 MB with the moment of the first collections: three sessions steady the median.
const SESSIONS = 3;
const SAMPLE_EVERY = 25;
const TARGET_RSS_RATIO = 1.6;
/** From this turn on, code has been compiled and caches filled: what the live heap gains after it, the session keeps. */
const SETTLED_TURN = 50;
const TARGET_HEAP_GROWTH_MB = 1;

interface Session {
  startMb: number;
  endMb: number;
  /** RSS every SAMPLE_EVERY turns, the start included. */
  trendMb: number[];
}

/** One figure read from the running REPL between turns. */
type Sampler<T> = (repl: Repl) => Promise<T>;

/** A conversation of TURNS turns, sampled once the REPL is ready and then every SAMPLE_EVERY turns. */
async function converse<T>(
  workspace: Workspace,
  ollama: FakeOllama,
  sample: Sampler<T>,
  extras?: NodeExtras,
): Promise<T[]> {
  const repl = await startRepl(workspace, ollama.url, extras);
  try {
    const samples = [await sample(repl)];
    for (let turn = 1; turn <= TURNS; turn++) {
      const mark = repl.session.mark();
      await submit(repl, ollama, `turn ${turn}`);
      // The fake answers "turn <n> done: <result>." once the calculator has run.
      await repl.session.waitFor(new RegExp(`turn ${turn} done`), mark);
      if (turn % SAMPLE_EVERY === 0) samples.push(await sample(repl));
    }
    return samples;
  } finally {
    await quitRepl(repl);
  }
}

async function rssSession(workspace: Workspace, ollama: FakeOllama): Promise<Session> {
  const trendMb = await converse(workspace, ollama, async (repl) => rssMb(repl.pid));
  return { startMb: trendMb[0] ?? Number.NaN, endMb: trendMb.at(-1) ?? Number.NaN, trendMb };
}

/**
 * The leak check: one more session, launched with --expose-gc and bench/lib/heap-probe, which
 * runs a full collection at each sample. What is then still alive is what the session keeps;
 * the RSS sessions above also count garbage V8 has not collected yet and the young generation's growth.
 */
async function leakCheck(workspace: Workspace, ollama: FakeOllama): Promise<HeapSample[]> {
  const out = path.join(workspace.dir, 'heap-probe.jsonl');
  fs.writeFileSync(out, '');
  const lines = (): string[] => fs.readFileSync(out, 'utf8').split('\n').filter(Boolean);
  const probe = path.join(import.meta.dirname, 'lib/heap-probe.js');
  return converse(
    workspace,
    ollama,
    async (repl) => {
      const before = lines().length;
      process.kill(repl.pid, 'SIGUSR2');
      await until('the heap probe to answer', () => lines().length > before);
      return JSON.parse(lines().at(-1) as string) as HeapSample;
    },
    { flags: ['--expose-gc', '--import', probe], env: { MCP_CHAT_HEAP_PROBE_OUT: out } },
  );
}

const trend = (values: number[]): string => values.map((mb) => roundTo(mb, 1)).join(' → ');

function rssRow(sessions: Session[]): Row {
  const growth = summarize(sessions.map((session) => session.endMb - session.startMb));
  return row({
    name: `REPL RSS after ${TURNS} turns`,
    unit: 'MB',
    measured: summarize(sessions.map((session) => session.endMb)),
    baselineLabel: 'the same process after start',
    baseline: summarize(sessions.map((session) => session.startMb)),
    checks: (ratio) => [check('ratio', ratio, '<', TARGET_RSS_RATIO)],
    details: {
      'growth, median MB': roundTo(growth.median, 1),
      ...Object.fromEntries(
        sessions.map((session, index) => [
          `session ${index + 1}, RSS every ${SAMPLE_EVERY} turns (MB)`,
          trend(session.trendMb),
        ]),
      ),
    },
  });
}

/** A growth in MB, signed: `+0.42`, `-0.1`. */
const signedMb = (mb: number): string => `${mb >= 0 ? '+' : ''}${roundTo(mb, 2)}`;

/** What each V8 space gained between two samples, the largest first: which kind of thing the session keeps. */
function spaceGrowth(from: HeapSample | undefined, to: HeapSample | undefined): string {
  if (!from || !to) return 'n/a';
  return Object.entries(to.spacesMb)
    .map(([space, mb]): [string, number] => [space, mb - (from.spacesMb[space] ?? 0)])
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
    .map(([space, mb]) => `${space} ${signedMb(mb)}`)
    .join(', ');
}

/**
 * What the live heap gained between two samples, split into the program's code (compiled by the
 * JIT as more functions turn hot, bytecode) and the rest: the data the session keeps.
 */
function kindGrowth(from: HeapSample | undefined, to: HeapSample | undefined): string {
  if (!from || !to) return 'n/a';
  const code = to.compiledCodeMb - from.compiledCodeMb;
  const bytecode = to.bytecodeMb - from.bytecodeMb;
  return [
    `compiled code and its metadata ${signedMb(code)}`,
    `bytecode ${signedMb(bytecode)}`,
    `everything else ${signedMb(to.liveHeapMb - from.liveHeapMb - code - bytecode)}`,
  ].join(', ');
}

/** The leak check's row: the live heap at the last turn against the same session's at SETTLED_TURN. */
function heapRow(heap: HeapSample[]): Row {
  const settled = heap[SETTLED_TURN / SAMPLE_EVERY]?.liveHeapMb ?? Number.NaN;
  const last = heap.at(-1)?.liveHeapMb ?? Number.NaN;
  return row({
    name: `REPL live heap after a full collection, turn ${TURNS}`,
    unit: 'MB',
    measured: summarize([last]),
    baselineLabel: `the same session at turn ${SETTLED_TURN}`,
    baseline: summarize([settled]),
    checks: () => [check(`growth from turn ${SETTLED_TURN}`, last - settled, '<', TARGET_HEAP_GROWTH_MB, 'MB')],
    details: {
      [`live heap every ${SAMPLE_EVERY} turns (MB)`]: trend(heap.map((sample) => sample.liveHeapMb)),
      'growth over the whole session (MB)': roundTo(last - (heap[0]?.liveHeapMb ?? Number.NaN), 1),
      'RSS right after each full collection (MB)': trend(heap.map((sample) => sample.rssMb)),
      [`growth from turn ${SETTLED_TURN} by V8 space (MB)`]: spaceGrowth(
        heap[SETTLED_TURN / SAMPLE_EVERY],
        heap.at(-1),
      ),
      [`growth from turn ${SETTLED_TURN} by kind (MB)`]: kindGrowth(heap[SETTLED_TURN / SAMPLE_EVERY], heap.at(-1)),
    },
  });
}

export async function benchMemory(workspace: Workspace): Promise<BenchmarkResult> {
  const began = performance.now();
  const ollama = await startToolCallingOllama();
  try {
    const sessions: Session[] = [];
    for (let run = 0; run < SESSIONS; run++) sessions.push(await rssSession(workspace, ollama));
    const heap = await leakCheck(workspace, ollama);
    return benchmarkResult(
      {
        id: 'memory',
        title: 'Memory',
        howMeasured:
          `The REPL (\`node dist/src/cli.js\`, three servers) in a pseudo-terminal against the fake Ollama. RSS (VmRSS from ` +
          `/proc) of the mcp-chat process once the status bar says everything is ready, then after each ${SAMPLE_EVERY} turns; a ` +
          'turn is typed like a person would, and each one makes a `calculator.evaluate` call and gets an answer, awaited on ' +
          `screen. Servers are separate processes and not counted. ${SESSIONS} sessions; the RSS ratio is the median after ` +
          'over the median at start. Leak check: one more session of the same turns, the REPL launched with `--expose-gc` and ' +
          'bench/lib/heap-probe.ts, which runs a full collection before each sample: the live heap is what the session keeps, ' +
          `without the garbage V8 has not collected yet; its growth is counted from turn ${SETTLED_TURN}, once compiled code and ` +
          'caches have settled. Its details split that growth into the code V8 compiled (machine code with its metadata, and ' +
          'bytecode: `v8.getHeapCodeStatistics`) and everything else, the data the session keeps.',
        warmup: `none: the start is the RSS baseline, turn ${SETTLED_TURN} the live heap's`,
        runs: `${SESSIONS} sessions of ${TURNS} turns, and one for the leak check`,
      },
      [rssRow(sessions), heapRow(heap)],
      began,
    );
  } finally {
    await ollama.close();
  }
}
