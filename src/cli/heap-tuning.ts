/**
 * Keeps a long session's resident memory near what it was at start. Left to its defaults, V8
 * gives a long REPL session heap that it never hands back, although what is alive stays flat
 * (31–35 MB after a full collection, bench/memory.ts). Two things grow, measured on the REPL over
 * 300 turns (bench/memory.ts, before this module):
 *
 * - The old generation. After its start-up collection, Node 22 sets the next one's limit with a
 *   growing factor of up to 4 and reaches turn 300 without a second one: old space grows from
 *   17 to 52 MB, nearly all of it garbage.
 * - The young generation. It starts at 16 MB (two 8 MB semi-spaces; Node 26: 9.5 MB), and V8
 *   doubles it whenever enough survives: to 32 MB on Node 20 and 22, 53 MB on Node 26, and
 *   128 MB (62 MB resident) on Node 24.
 *
 * How much each may grow is a V8 flag read when the decision is taken (`--heap-growing-percent`,
 * `--semi-space-growth-factor`), so `v8.setFlagsFromString` changes them in a running process; flags read only when the heap is set up, such as `--max-semi-space-size`,
 * have no effect from here (measured: Node 22 and 24 grow to 32 and 128 MB with it all the same).
 * RSS after 300 turns over RSS at start (bench/memory.ts, median of 3 sessions), before → after:
 * Node 20 1.35 → 1.15, Node 22 1.71 → 1.43, Node 24 1.69 → 1.21, Node 26 1.64 → 1.31. The cost, on
 * Node 22: about 30 more young-generation collections and 3 more full ones (with concurrent
 * marking) over the 300 turns.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';

/**
 * The old generation may grow to 1.5 times what survived the last full collection before the
 * next one, instead of up to 4 times. V8 still grows it by a minimum step, so small heaps are
 * not collected over and over.
 */
const HEAP_GROWING_PERCENT = 50;

/**
 * The young generation's largest size: what the REPL's start-up already grows it to on Node 20 to
 * 24. Collections of a young generation cost in proportion to what survives, not to its size.
 */
const YOUNG_GENERATION_CAP_BYTES = 16 * 2 ** 20;

/** V8's default factor by which the young generation grows. */
const DEFAULT_SEMI_SPACE_GROWTH_FACTOR = 2;

function youngGenerationBytes(): number {
  return v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

/**
 * Sets the old generation's growing factor, and after each collection lets the young
 * generation grow only while growing would not take it past the cap (a factor of 1 stops it; V8
 * may still shrink it when the process is idle, and it may then grow again). Call it once, before the program is
 * loaded: the start-up collection already sets the next one's limit.
 */
export function tuneHeap(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  let capped = false;
  // A performance observer does not keep the process alive.
  new PerformanceObserver(() => {
    // V8 grows it by the factor at once (Node 24 from 10.9 to 21.8 MB): stop before the step that passes the cap.
    const atCap = youngGenerationBytes() * DEFAULT_SEMI_SPACE_GROWTH_FACTOR > YOUNG_GENERATION_CAP_BYTES;
    if (atCap === capped) return;
    capped = atCap;
    v8.setFlagsFromString(`--semi-space-growth-factor=${atCap ? 1 : DEFAULT_SEMI_SPACE_GROWTH_FACTOR}`);
  }).observe({ entryTypes: ['gc'] });
}
