/**
 * The heap tuning `mcp-chat` starts with (src/cli/heap-tuning.ts): the young generation stops
 * growing at its cap, the running Node knows the flags it sets, and it keeps no process alive.
 */
import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { tuneHeap } from '../../src/cli/heap-tuning.js';
import { runCli } from '../helpers/run-cli.js';

const MB = 2 ** 20;
const youngGeneration = (): number =>
  v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('tuneHeap', () => {
  // This file's own process (vitest forks one per file) is tuned: what is measured is V8's real heap.
  it('stops the young generation growing once near 16 MB, where V8 takes it to 32 MB (Node 20) or 128 MB (Node 24)', async () => {
    tuneHeap();
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
    // it stops between 16 and 22 MB there. Untuned, the next step is 32 MB (Node 20), or on to 128.
    expect(largest / MB).toBeLessThan(2 * Math.max(16, atStart / MB));
  });

  it('sets only flags the running Node knows, and leaves no handle open: the CLI prints nothing else and exits', async () => {
    const result = await runCli(['--version'], { timeoutMs: 15_000 });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});
