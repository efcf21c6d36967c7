#!/usr/bin/env node
/**
 * The `mcp-chat` executable. It turns on Node's module compile cache (Node 22.1 and later) before
 * anything else is loaded, so the code a command loads is compiled once, not at every start; then
 * it loads the command line and runs it. Under Node 20, which has no such cache, it just runs it.
 */
import path from 'node:path';
import { turnOnCompileCache } from './cli/compile-cache.js';
import { cacheDir } from './shared/state-dir.js';

// Security: in a directory of the user's own, not Node's default in the shared temporary directory,
// where another local user could create it first and plant code cache for V8 to load. Set
// NODE_COMPILE_CACHE has Node turn the cache on there before this runs (this call then changes
// nothing); NODE_DISABLE_COMPILE_CACHE turns it off.
turnOnCompileCache(path.join(cacheDir(process.env), 'compile-cache'));

const { runCli } = await import('./cli/main.js');
await runCli(process.argv);
