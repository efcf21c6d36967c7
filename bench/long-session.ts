/**
 * Budgets: a long chat's memory. The REPL (three stdio servers) in a pseudo-terminal is given
 * 600 short turns, typed as a person types them, taking the three prompts of the peer rows in
 * turn (an answer, one tool call, three calls in one reply), each awaited on screen. The REPL
 * process's resident memory is read from /proc, from outside, once it is up and every 25 turns:
 * what it is after 300 turns, and what it gains from there to turn 600. The first turns grow it
 * by design of V8, which sizes its young generation to how much a program keeps alive for a while
 * (seen growing from 16 to 128 MB on Node 24); once sized, a long session must add nothing.
 */
import { withBudgetWorld } from './lib/budget-world.js';
import { Inspector } from './lib/inspector.js';
import { expectedAnswer, PROMPT_KINDS, PROMPTS } from './lib/model/script.js';
import { processTree, rssMb, treeRssMb } from './lib/processes.js';
import { literal, quitRepl, startRepl, submit, type Repl } from './lib/repl.js';
import { budget, benchmarkResult, type BenchmarkResult, type Budget } from './lib/results.js';
import { roundTo } from './lib/stats.js';

const TURNS = 600;
const SAMPLE_EVERY = 25;
/** Where the live heap's growth is counted from: code compiled, caches filled. */
const SETTLED_TURN = 50;
/** Where the RSS budget is read, and its growth counted from: V8 has sized its heap to the chat by then. */
const SIZED_TURN = 300;
const RSS_BUDGET_MB = 250;
const GROWTH_BUDGET_MB = 25;
const HEAP_GROWTH_BUDGET_MB = 2;

interface Sample {
  turn: number;
  rssMb: number;
  treeRssMb: number;
}

/** A figure read from the running REPL between turns. */
type Sampler<T> = (repl: Repl, turn: number) => Promise<T>;

/** A session of TURNS turns, sampled once the REPL is up and every SAMPLE_EVERY turns; `open` runs first. */
async function converse<T>(sample: Sampler<T>, open?: (repl: Repl) => Promise<() => void>): Promise<T[]> {
  return withBudgetWorld({}, async (world, model) => {
    const repl = await startRepl(world, model);
    const closeProbe = open ? await open(repl) : () => undefined;
    try {
      const samples = [await sample(repl, 0)];
      for (let turn = 1; turn <= TURNS; turn++) {
        const kind = PROMPT_KINDS[turn % PROMPT_KINDS.length] ?? 'answer';
        const mark = repl.session.mark();
        await submit(repl, model, `${PROMPTS[kind].text} (#${turn})`);
        await repl.session.waitFor(literal(expectedAnswer(kind, turn)), mark);
        if (turn % SAMPLE_EVERY === 0) samples.push(await sample(repl, turn));
      }
      return samples;
    } finally {
      closeProbe();
      await quitRepl(repl);
    }
  });
}

const rssSample: Sampler<Sample> = async (repl, turn) => ({
  turn,
  rssMb: rssMb(repl.pid),
  treeRssMb: treeRssMb(processTree(repl.pid)),
});

/**
 * A second session, watched through Node's inspector (opened from outside with SIGUSR1): the live
 * heap after a full collection is what the session keeps, without the garbage V8 has not collected
 * yet, which RSS also counts. Its own session, so the inspector's memory is in no RSS figure.
 */
async function heapSession(): Promise<number[]> {
  let inspector: Inspector | undefined;
  return converse(
    async () => (inspector as Inspector).liveHeapMb(),
    async (repl) => {
      inspector = await Inspector.open(repl.pid);
      return () => inspector?.close();
    },
  );
}

function heapBudget(heap: number[] | Error): Budget {
  const at = (turn: number): number => (Array.isArray(heap) ? (heap[turn / SAMPLE_EVERY] ?? Number.NaN) : Number.NaN);
  return budget({
    name: `REPL live heap growth from turn ${SETTLED_TURN} to turn ${TURNS}`,
    label: 'growth',
    value: roundTo(at(TURNS) - at(SETTLED_TURN), 2),
    op: '<=',
    limit: HEAP_GROWTH_BUDGET_MB,
    unit: 'MB',
    why: 'what a session keeps must not grow with it: 2 MB over 550 turns would take thousands of turns to be felt',
    details: Array.isArray(heap)
      ? {
          [`live heap after a full collection every ${SAMPLE_EVERY} turns (MB)`]: heap
            .map((mb) => roundTo(mb, 1))
            .join(' → '),
        }
      : { 'not observed': heap.message },
  });
}

const trend = (samples: Sample[], pick: (sample: Sample) => number): string =>
  samples.map((item) => roundTo(pick(item), 1)).join(' → ');

export async function benchLongSession(): Promise<BenchmarkResult> {
  const began = performance.now();
  const samples = await converse(rssSample);
  const heap = await heapSession().catch((error: unknown) =>
    error instanceof Error ? error : new Error(String(error)),
  );
  const at = (turn: number): Sample => {
    const found = samples.find((item) => item.turn === turn);
    if (!found) throw new Error(`no sample at turn ${turn}`);
    return found;
  };
  const sized = at(SIZED_TURN);
  const growth = at(TURNS).rssMb - sized.rssMb;
  const details = {
    [`REPL RSS every ${SAMPLE_EVERY} turns (MB)`]: trend(samples, (item) => item.rssMb),
    [`REPL and its servers every ${SAMPLE_EVERY} turns (MB)`]: trend(samples, (item) => item.treeRssMb),
  };
  return benchmarkResult(
    {
      id: 'long-session',
      title: "Budgets: a long chat's memory",
      howMeasured:
        `The REPL (\`node dist/src/cli.js\`, calculator, file and research over stdio) in a pseudo-terminal against the ` +
        `scripted model, ${TURNS} turns typed as a person does, each awaited on screen (its answer ends with the turn's ` +
        'number); the turns take the three prompts of the peer rows in turn. Resident memory (VmRSS from /proc) of the REPL ' +
        `process once the status bar says every server is ready, then every ${SAMPLE_EVERY} turns; the servers are ` +
        'separate processes, shown beside. Then a second session of the same turns, whose live heap is read after a full ' +
        "collection every 25 turns through Node's inspector, opened from outside with SIGUSR1. Nothing is added to the " +
        'product: no flag, no module; it is watched from outside.',
      warmup: `none: RSS growth is counted from turn ${SIZED_TURN}, the live heap's from turn ${SETTLED_TURN}`,
      runs: `one session of ${TURNS} turns for RSS, one for the live heap`,
    },
    [],
    began,
    {
      budgets: [
        budget({
          name: `REPL RSS after ${SIZED_TURN} turns`,
          label: 'RSS',
          value: roundTo(sized.rssMb, 1),
          op: '<=',
          limit: RSS_BUDGET_MB,
          unit: 'MB',
          why: 'a chat left open all day beside an editor, a browser and the model should weigh what a small app does',
          details,
        }),
        budget({
          name: `REPL RSS growth from turn ${SIZED_TURN} to turn ${TURNS}`,
          label: 'growth',
          value: roundTo(growth, 1),
          op: '<=',
          limit: GROWTH_BUDGET_MB,
          unit: 'MB',
          why: 'memory that keeps growing with the turns ends a long session; 25 MB over 300 turns is a twelfth of a MB a turn',
        }),
        heapBudget(heap),
      ],
    },
  );
}
