/**
 * When the chat tunes its heap (src/cli/heap-tuning.ts): as soon as its servers are up, before a
 * reply can be streaming. The tuning's full collection deoptimises code that held objects now dead,
 * and made in a streaming reply it left that reply's hottest code unoptimised for many replies.
 */
import { constants, type NodeGCPerformanceDetail, type PerformanceEntry, PerformanceObserver } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tuneHeapOnceStarted } from '../../src/cli/heap-tuning.js';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Turns of the event loop until `done`, at most `turns` of them: GC entries reach observers a turn or two after. */
async function turnsUntil(done: () => boolean, turns = 200): Promise<void> {
  for (let turn = 0; turn < turns && !done(); turn++) await nextTurn();
}

describe('tuneHeapOnceStarted', () => {
  // This file's own process (vitest forks one per file) is tuned: the full collection is V8's real one.
  const forcedFullCollections: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const { kind, flags } = (entry as PerformanceEntry & { detail: NodeGCPerformanceDetail }).detail;
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR && flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED)
        forcedFullCollections.push(entry);
    }
  });
  beforeAll(() => observer.observe({ entryTypes: ['gc'] }));
  afterAll(() => {
    observer.disconnect();
    vi.useRealTimers();
  });

  it('waits for the servers, then tunes on the next turn of the event loop, not seconds later', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let serversUp = (): void => undefined;
    tuneHeapOnceStarted(new Promise<void>((resolve) => (serversUp = resolve)));
    await vi.advanceTimersByTimeAsync(10_000);
    await turnsUntil(() => forcedFullCollections.length > 0, 20);
    expect(forcedFullCollections).toHaveLength(0);

    serversUp();
    await vi.advanceTimersByTimeAsync(0);
    await turnsUntil(() => forcedFullCollections.length > 0);
    expect(forcedFullCollections).toHaveLength(1);
  });
});
