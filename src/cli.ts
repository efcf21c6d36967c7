#!/usr/bin/env node
/**
 * The `mcp-chat` executable. It turns on Node's module compile cache (Node 22.1 and later) before
 * anything else is loaded, so that the code a command loads is compiled once, not at every start;
 * then it runs the command line. Under Node 20, which has no such cache, the call is skipped.
 */
import module from 'node:module';

/** `module.enableCompileCache` exists from Node 22.1 on; `engines` allows Node 20, whose typings lack it. */
type CompileCacheModule = typeof module & { enableCompileCache?: () => unknown };

// Node's own default place (NODE_COMPILE_CACHE, else the system's temporary directory); NODE_DISABLE_COMPILE_CACHE turns it off.
(module as CompileCacheModule).enableCompileCache?.();

const { runCli } = await import('./cli/main.js');
await runCli(process.argv);
