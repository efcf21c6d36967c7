/**
 * Node's module compile cache (Node 22.1 and later), and the command line's start module compiled
 * whole into it.
 *
 * Why whole: V8 compiles a function's body the first time it is called, and Node writes a file's
 * code cache as soon as the file is compiled, before it runs. So a cached file still has every
 * function it calls compiled afresh at every start: for the start module (the command line, the
 * config and its zod schemas, the log) that was about 27 ms of CPU of a `tools --json` before its
 * first server was spawned (bench/fixes.md). Compiled under V8's `--no-lazy`, its cache holds them all.
 *
 * Two rules keep every file's cache valid from one run to the next, whatever command runs:
 * - V8 takes a code cache only under the flags it was made with. Only the start module is compiled
 *   whole, always, and the flag is back to lazy before any other file loads: every other file is
 *   always compiled lazily (the chat's Ink and markdown code, 3 MB, would start slower whole).
 * - Node's own modules carry code caches made under the default flags: one first loaded while the
 *   flag is off would be compiled from its source, whole. The ones the start module loads as it is
 *   evaluated are loaded before (test/e2e/compile-cache.test.ts checks that none is left).
 */
import module from 'node:module';

/** What Node 22.1+ has and Node 20's typings (which `engines` allows) lack. */
interface CompileCacheApi {
  enableCompileCache?: (directory: string) => { status: number };
  constants?: { compileCacheStatus?: { ENABLED: number; ALREADY_ENABLED: number } };
}

/** Node's modules the start module loads as it is evaluated (their own dependencies come along). */
const START_BUILTINS = ['node:child_process', 'node:fs/promises', 'node:os', 'node:process', 'node:timers/promises'];

/**
 * Turns the cache on in `directory` (unless NODE_COMPILE_CACHE already did, or
 * NODE_DISABLE_COMPILE_CACHE forbids it); true when code compiled from now on is cached.
 */
export function turnOnCompileCache(directory: string): boolean {
  const api = module as typeof module & CompileCacheApi;
  const result = api.enableCompileCache?.(directory);
  const status = api.constants?.compileCacheStatus;
  if (result === undefined || status === undefined) return false;
  return result.status === status.ENABLED || result.status === status.ALREADY_ENABLED;
}

/** Loads the start module: compiled whole when the cache is on (see above), as usual when it is not. */
export async function loadStartModule<T>(load: () => Promise<T>, cacheIsOn: boolean): Promise<T> {
  if (!cacheIsOn) return load();
  // Loaded here, not with this file: without the cache (Node 20) it would cost a start 3 ms for nothing.
  const { default: v8 } = await import('node:v8');
  const require = module.createRequire(import.meta.url);
  for (const name of START_BUILTINS) require(name);
  v8.setFlagsFromString('--no-lazy');
  try {
    return await load();
  } finally {
    v8.setFlagsFromString('--lazy');
  }
}
