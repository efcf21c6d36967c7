/**
 * Node's module compile cache (Node 22.1 and later): code a command loads is compiled once and
 * read back at the next start. Node 20 has no such cache, and its typings lack the API.
 */
import module from 'node:module';

/** What Node 22.1+ has and Node 20's typings (which `engines` allows) lack. */
interface CompileCacheApi {
  enableCompileCache?: (directory: string) => { status: number };
  constants?: { compileCacheStatus?: { ENABLED: number; ALREADY_ENABLED: number } };
}

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
