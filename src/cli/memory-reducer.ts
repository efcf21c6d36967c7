/**
 * Keeps V8's memory reducer from collecting in the chat. Once a process goes quiet, the reducer
 * makes up to two full collections that shrink the heap. A chat goes quiet after every reply, while
 * its user reads, and on Node 24 and 26 the reducer's collections cost the replies after them
 * (bench/fixes.md):
 *
 * - they deoptimise the code V8 optimised for the streaming path (34 functions on Node 26, V8's
 *   reason "embedded weak objects cleared"), which then needs its thousands of calls again;
 * - they shrink the young generation, and the next reply makes about four times as many young
 *   collections while it grows back.
 *
 * Without them, the REPL's CPU while a reply streams went from 9.8 to 8.6 % of a core on Node 26,
 * 8.5 to 7.4 % on Node 24.
 * The cost is memory V8 would have handed back while the chat is idle: the young generation stays
 * at the size the heap tuning caps it to (heap-tuning.ts), 16 to 20 MB more resident.
 *
 * `--memory-reducer-gc-count` (V8 12 and later; Node 20's V8 does not have it) is read at each of
 * the reducer's steps, and V8 checks that the collections the reducer has started do not exceed it:
 * set to 0 between its two collections, it aborts the process (seen on Node 26). So it is set only
 * in the process's first seconds, before the reducer can have started one (it waits at least 8 s
 * after the first full collection), and the chat sets it as it begins.
 */
import v8 from 'node:v8';

/** The first V8 with `--memory-reducer-gc-count` (Node 22). */
const FIRST_V8_WITH_GC_COUNT = 12;

/** Well before the reducer's first collection can start. */
const LATEST_SAFE_UPTIME_SECONDS = 5;

/** The running process: its V8, and how long it has run. */
export interface RunningProcess {
  /** `process.versions.v8`. */
  v8: string;
  /** `process.uptime()`. */
  uptimeSeconds: number;
}

/** Returns whether it was set: not on a V8 without the flag, nor in a process that has run too long. */
export function keepMemoryReducerFromCollecting(
  running: RunningProcess = { v8: process.versions.v8, uptimeSeconds: process.uptime() },
): boolean {
  if (Number(running.v8.split('.')[0]) < FIRST_V8_WITH_GC_COUNT) return false;
  if (running.uptimeSeconds > LATEST_SAFE_UPTIME_SECONDS) return false;
  v8.setFlagsFromString('--memory-reducer-gc-count=0');
  return true;
}
