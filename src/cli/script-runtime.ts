/** The runtime a command builds from its flags: the REPL's own, or a script's. */
import type { Command } from 'commander';
import { createRuntime, type GlobalOptions, type Runtime } from '../session/runtime.js';
import type { Output } from './output.js';

/** Global flags merged from the program and the subcommand, whichever side they were given on. */
export function globals(command: Command): GlobalOptions {
  return command.optsWithGlobals<GlobalOptions>();
}

/** A script's runtime: an untrusted ./mcp_config.json is refused, and notices are shown only on a terminal. */
export function scriptRuntime(command: Command, output: Output): Promise<Runtime> {
  return createRuntime(globals(command), {
    notify: (line) => {
      if (output.stderrIsTty) output.stderr(`notice: ${line}\n`);
    },
    warn: output.warn,
  });
}
