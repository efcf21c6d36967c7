/**
 * Loaded into the REPL with `node --expose-gc --import` by the memory benchmark's leak check
 * only: on SIGUSR2 it runs a full collection and appends one line to the file named by
 * MCP_CHAT_HEAP_PROBE_OUT, so what is still alive can be told from what V8 has not yet collected.
 */
import fs from 'node:fs';
import v8 from 'node:v8';

export interface HeapSample {
  /** The JavaScript heap still in use after a full collection. */
  liveHeapMb: number;
  /** Resident memory right after that collection. */
  rssMb: number;
  /** The live heap by V8 space (`old_space`, `code_space`, …): data grows the old spaces, compiled code the code space. */
  spacesMb: Record<string, number>;
}

const out = process.env.MCP_CHAT_HEAP_PROBE_OUT;
const collect = (globalThis as { gc?: () => void }).gc;
if (!out || !collect) throw new Error('heap-probe needs --expose-gc and MCP_CHAT_HEAP_PROBE_OUT');

const mb = (bytes: number): number => bytes / 2 ** 20;

process.on('SIGUSR2', () => {
  collect();
  const usage = process.memoryUsage();
  const spacesMb = Object.fromEntries(
    v8.getHeapSpaceStatistics().map((space) => [space.space_name, mb(space.space_used_size)]),
  );
  const sample: HeapSample = { liveHeapMb: mb(usage.heapUsed), rssMb: mb(usage.rss), spacesMb };
  fs.appendFileSync(out, `${JSON.stringify(sample)}\n`);
});
