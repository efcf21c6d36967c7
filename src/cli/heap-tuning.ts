/**
 * Keeps a long chat's resident memory near what it was once the chat had started. Left to its
 * defaults, V8 gives a long REPL session heap that it never hands back, although what is alive
 * stays flat (31–35 MB after a full collection, bench/memory.ts). Two things grow over 300 turns:
 *
 * - The old generation. After its start-up collection, Node 22 sets the next one's limit with a
 *   growing factor of up to 4 and reaches turn 300 without a second one: old space grows from
 *   17 to 52 MB, nearly all of it garbage.
 * - The young generation. V8 doubles it whenever enough survives a collection: to 32 MB on
 *   Node 20 and 22, 53 MB on Node 26, and 128 MB (62 MB resident) on Node 24.
 *
 * How much each may grow is a V8 flag read when the decision is taken (`--heap-growing-percent`,
 * `--semi-space-growth-factor`), so `v8.setFlagsFromString` changes them in a running process;
 * flags read only when the heap is set up, such as `--max-semi-space-size`, have no effect from
 * here. Only the chat sets them, and only once its servers are up: set at process start they made
 * every command's start slower (more full collections while the program loads), and the full
 * collection made here takes 30–60 ms of the main thread (bench/fixes.md).
 */
import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';
import { garbageCollector } from '../shared/garbage-collector.js';

/**
 * The old generation may grow to 1.5 times what survived the last full collection before the
 * next one, instead of up to 4 times. V8 still grows it by a minimum step, so small heaps are
 * not collected over and over.
 */
const HEAP_GROWING_PERCENT = 50;

/**
 * The young generation's largest size: V8's own on Node 20 and 22, where the cap changes nothing;
 * Node 24 and 26 would grow it further. Collections of a young generation cost in proportion to
 * what survives, not to its size, but more of them run in a smaller one.
 */
const YOUNG_GENERATION_CAP_BYTES = 32 * 2 ** 20;

/** V8's default factor by which the young generation grows. */
const DEFAULT_SEMI_SPACE_GROWTH_FACTOR = 2;

function youngGenerationBytes(): number {
  return v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

/**
 * Sets the old generation's growing factor, and after each collection lets the young generation
 * grow only while growing would not take it past the cap (a factor of 1 stops it; V8 may still
 * shrink it when the process is idle, and it may then grow again). Then it runs one full
 * collection: the old generation's factor applies from a full collection on, and the one start-up
 * made set the next one's limit high enough that a long session may never reach it.
 */
export function tuneHeapForLongSession(youngGenerationCapBytes = YOUNG_GENERATION_CAP_BYTES): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  let capped = false;
  const capYoungGeneration = (): void => {
    // V8 grows it by the factor at once (Node 24 from 10.9 to 21.8 MB): stop before the step that passes the cap.
    const atCap = youngGenerationBytes() * DEFAULT_SEMI_SPACE_GROWTH_FACTOR > youngGenerationCapBytes;
    if (atCap === capped) return;
    capped = atCap;
    v8.setFlagsFromString(`--semi-space-growth-factor=${atCap ? 1 : DEFAULT_SEMI_SPACE_GROWTH_FACTOR}`);
  };
  garbageCollector()();
  // Start-up may already have grown it to the cap: the next collection must not double it again.
  capYoungGeneration();
  // A performance observer does not keep the process alive.
  new PerformanceObserver(capYoungGeneration).observe({ entryTypes: ['gc'] });
}

/**
 * Tunes the heap as soon as the chat has started (`started`: its servers are up, the screen that
 * says so drawn first), before a reply can be streaming. A full collection clears what V8's
 * optimised code holds weakly, and code that held an object now dead is deoptimised: made a few
 * seconds later, it fell in the first reply of a user quick to type, and sent that reply's hottest
 * functions (Ink's output, the reads of the model's stream, the microtask loop) back to baseline
 * code, where V8 left them for many replies more (bench/fixes.md).
 */
export function tuneHeapOnceStarted(started: Promise<void>): void {
  // Unref'd: a chat that ends sooner has nothing to tune.
  void started.then(() => setTimeout(() => tuneHeapForLongSession(), 0).unref());
}
