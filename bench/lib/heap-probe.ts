/**
 * Loaded into the REPL with `node --expose-gc --import` by the memory benchmark's leak check
 * only: on SIGUSR2 it runs a full collection and appends one line to the file named by
 * MCP_CHAT_HEAP_PROBE_OUT, so what is still alive can be told from what V8 has not yet collected.
 *
 * A collection finds the objects a `FinalizationRegistry` watches dead, but the registry lets go
 * of what it holds for them only in its cleanup, a task of its own after the collection. undici
 * registers one for every `fetch` given a signal (its holdings keep that signal and its
 * listeners), so a sample taken straight after one collection counted every request since the
 * last full collection the session ran by itself: about one a turn. The probe collects, lets
 * those tasks run, and collects again.
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
  /**
   * Of the live heap, the machine code V8 has compiled and its metadata, and the bytecode: the
   * program's code, not what the session keeps. The spaces do not tell these apart on every
   * Node line (bytecode is in the old space up to Node 22, in the trusted space after).
   */
  compiledCodeMb: number;
  bytecodeMb: number;
}

const out = process.env.MCP_CHAT_HEAP_PROBE_OUT;
const collect = (globalThis as { gc?: () => void }).gc;
if (!out || !collect) throw new Error('heap-probe needs --expose-gc and MCP_CHAT_HEAP_PROBE_OUT');

const mb = (bytes: number): number => bytes / 2 ** 20;

/**
 * Past the next poll phase of the event loop, where Node runs the tasks V8 posted: an immediate
 * queued from an immediate runs in the next loop's check phase.
 */
const pastNextPoll = (): Promise<void> => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
/** Collections until one frees less than this: each registry's cleanup is a task of its own. */
const SETTLED_BYTES = 1024;
const MAX_COLLECTIONS = 10;

// Arrow functions after the check, so TypeScript keeps `out` and `collect` known to be set.
const collectSettled = async (): Promise<void> => {
  let before = Number.POSITIVE_INFINITY;
  for (let round = 0; round < MAX_COLLECTIONS; round++) {
    collect();
    const used = process.memoryUsage().heapUsed;
    if (before - used < SETTLED_BYTES) return;
    before = used;
    await pastNextPoll();
  }
};

const sample = (): void => {
  const usage = process.memoryUsage();
  const spacesMb = Object.fromEntries(
    v8.getHeapSpaceStatistics().map((space) => [space.space_name, mb(space.space_used_size)]),
  );
  const code = v8.getHeapCodeStatistics();
  const sampled: HeapSample = {
    liveHeapMb: mb(usage.heapUsed),
    rssMb: mb(usage.rss),
    spacesMb,
    compiledCodeMb: mb(code.code_and_metadata_size),
    bytecodeMb: mb(code.bytecode_and_metadata_size),
  };
  fs.appendFileSync(out, `${JSON.stringify(sampled)}\n`);
};

process.on('SIGUSR2', () => {
  void collectSettled().then(sample);
});
