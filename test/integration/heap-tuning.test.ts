/**
 * The heap tuning the chat applies once it has started (src/cli/heap-tuning.ts): one full
 * collection at once, the young generation stopped at its cap, only flags the running Node knows,
 * and no process kept alive by its observer.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { constants, type NodeGCPerformanceDetail, type PerformanceEntry, PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { tuneHeapForLongSession } from '../../src/cli/heap-tuning.js';
import { REPO_ROOT } from '../helpers/server-configs.js';

const MB = 2 ** 20;
const youngGeneration = (): number =>
  v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('tuneHeapForLongSession', () => {
  // This file's own process (vitest forks one per file) is tuned: what is measured is V8's real heap.
  // Capped at 16 MB rather than the chat's 32 (V8's own limit on Node 20 and 22), so that the cap
  // is seen to act on every Node line.
  const CAP_MB = 16;
  const forcedFullCollections: PerformanceEntry[] = [];
  beforeAll(() => {
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const { kind, flags } = (entry as PerformanceEntry & { detail: NodeGCPerformanceDetail }).detail;
        if (kind === constants.NODE_PERFORMANCE_GC_MAJOR && flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED)
          forcedFullCollections.push(entry);
      }
    });
    observer.observe({ entryTypes: ['gc'] });
    tuneHeapForLongSession(CAP_MB * MB);
    return () => observer.disconnect();
  });

  it("runs one full collection at once, so the old generation's new growth factor applies from the start of the chat", async () => {
    // Performance entries are delivered after the task that made them.
    await vi.waitFor(() => expect(forcedFullCollections.length).toBeGreaterThan(0));
    expect(forcedFullCollections).toHaveLength(1);
    // Lent by a throwaway context: this one does not get `gc`.
    expect('gc' in globalThis).toBe(false);
  });

  it('stops the young generation growing at its cap, where V8 takes it to 32 MB (Node 20) or 128 MB (Node 24)', async () => {
    const atStart = youngGeneration();
    let largest = atStart;
    // Many short-lived objects with a large share surviving a collection or two: what makes V8 grow it.
    const kept: { n: number; text: string }[] = [];
    for (let n = 0; n < 3_000_000; n++) {
      kept.push({ n, text: `x${n}` });
      if (kept.length > 200_000) kept.splice(0, 50_000);
      if (n % 10_000 === 0) {
        largest = Math.max(largest, youngGeneration());
        // The cap is set from a GC observer, which runs between tasks.
        await nextTurn();
      }
    }
    // The observer hears of collections after the fact, and Node 24 sizes the space by what survives:
    // it stops between 16 and 22 MB there. Untuned, the next step is 32 MB, or on to 128.
    expect(largest / MB).toBeLessThan(2 * Math.max(CAP_MB, atStart / MB));
  });

  it('sets only flags the running Node knows, and keeps no process alive: nothing is printed and the process exits', async () => {
    // The built module, as the chat loads it: V8 reports an unknown flag on the process's own stderr.
    const built = pathToFileURL(path.join(REPO_ROOT, 'dist/src/cli/heap-tuning.js')).href;
    const child = spawn(process.execPath, [
      '--input-type=module',
      '-e',
      `const { tuneHeapForLongSession } = await import(${JSON.stringify(built)}); tuneHeapForLongSession(); console.log('tuned');`,
    ]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: 'tuned\n', stderr: '' });
  });
});
