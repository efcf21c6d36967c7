/**
 * The command line: commander's program, built from the command table (./command-table.ts).
 * Global flags are accepted before or after the command; an action's exit code goes to the sink.
 */
import { Command, Option } from 'commander';
import { PACKAGE_VERSION } from '../shared/paths.js';
import { GLOBAL_OPTIONS, type CommandSpec, type OptionSpec } from './command-spec.js';
import { COMMANDS } from './command-table.js';
import type { Output } from './output.js';

export type ExitCodeSink = (code: number) => void;

function toOption(spec: OptionSpec): Option {
  const option = new Option(spec.flags, spec.description);
  if (spec.choices) option.choices(spec.choices);
  if (spec.parse) option.argParser(spec.parse);
  if ('default' in spec) option.default(spec.default);
  return option;
}

function addOptions(command: Command, options: readonly OptionSpec[]): void {
  for (const option of options) command.addOption(toOption(option));
}

/** Adds `spec` under `parent`, which must be configured first: a command inherits its settings when created. */
function addCommand(parent: Command, spec: CommandSpec, output: Output, setExitCode: ExitCodeSink): void {
  const command = parent.command(spec.name, { isDefault: spec.isDefault }).description(spec.description);
  for (const [syntax, description] of spec.arguments ?? []) command.argument(syntax, description);
  // The global flags first, as `--help` lists them.
  if (spec.takesGlobals) addOptions(command, GLOBAL_OPTIONS);
  addOptions(command, spec.options ?? []);
  for (const subcommand of spec.subcommands ?? []) addCommand(command, subcommand, output, setExitCode);
  const { run } = spec;
  if (!run) return;
  // What commander would pass an action callback: the parsed operands, the command's flags, the command.
  command.action(async () => {
    setExitCode(await run({ operands: command.processedArgs, flags: command.opts(), command, output }));
  });
}

export function buildProgram(output: Output, setExitCode: ExitCodeSink): Command {
  // exitOverride first: subcommands inherit it only when they are created after it.
  const program = new Command('mcp-chat').exitOverride();
  addOptions(program, GLOBAL_OPTIONS);
  program
    .description('Chat with a local Ollama model that can use MCP tools')
    .version(PACKAGE_VERSION)
    .showHelpAfterError('(run mcp-chat --help for usage)');
  for (const spec of COMMANDS) addCommand(program, spec, output, setExitCode);
  return program;
}
