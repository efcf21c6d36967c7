#!/usr/bin/env node
/**
 * The `mcp-chat` executable. It turns on Node's module compile cache (Node 22.1 and later) before
 * anything else is loaded, so that the code a command loads is compiled once, not at every start;
 * then it runs the command line. Under Node 20, which has no such cache, the call is skipped.
 */
import module from 'node:module';
import path from 'node:path';
import { cacheDir } from './shared/state-dir.js';

/** `module.enableCompileCache` exists from Node 22.1 on; `engines` allows Node 20, whose typings lack it. */
type CompileCacheModule = typeof module & { enableCompileCache?: (directory: string) => unknown };

// Security: in a directory of the user's own, not Node's default in the shared temporary directory,
// where another local user could create it first and plant code cache for V8 to load. Set
// NODE_COMPILE_CACHE has Node turn the cache on there before this runs (this call then changes
// nothing); NODE_DISABLE_COMPILE_CACHE turns it off.
(module as CompileCacheModule).enableCompileCache?.(path.join(cacheDir(process.env), 'compile-cache'));

const { runCli } = await import('./cli/main.js');
await runCli(process.argv);
