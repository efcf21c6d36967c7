/**
 * A command of the command line as data: the name, arguments and flags commander shows and parses,
 * and the action that runs it. The global flags are declared here once, for the program and every
 * command that takes them.
 */
import type { Command } from 'commander';
import type { Output } from './output.js';

/**
 * One flag, as commander's `Option` takes it. Data rather than an `Option`, so that every program
 * built gets option objects of its own.
 */
export interface OptionSpec {
  flags: string;
  description: string;
  choices?: readonly string[];
  default?: unknown;
  /** The flag's value from its text and, for a repeatable flag, the value so far. */
  parse?(value: string, previous: unknown): unknown;
}

/** An operand as commander parses it: a variadic argument is an array, a missing optional one undefined. */
export type Operand = string | string[] | undefined;

/** What one run of a command receives. */
export interface Invocation<Operands extends Operand[], Flags extends object> {
  /** The command's arguments, in the order they are declared. */
  operands: Operands;
  /** The command's own flags; the global ones are read through `command`. */
  flags: Flags;
  command: Command;
  output: Output;
}

export interface CommandSpec<Operands extends Operand[] = Operand[], Flags extends object = object> {
  name: string;
  description: string;
  /** `[syntax, description]` of each argument: `<required>`, `[optional]`, `name...` for the rest. */
  arguments?: readonly (readonly [string, string])[];
  options?: readonly OptionSpec[];
  /** The global flags may follow the command's name too: for the commands that read the config. */
  takesGlobals?: boolean;
  /** The command run when none is named. */
  isDefault?: boolean;
  subcommands?: readonly CommandSpec[];
  /**
   * Loads the command's module and runs it; resolves to the exit code. A method, so that each
   * command names the types of its own operands and flags, as commander's action callbacks do.
   */
  run?(invocation: Invocation<Operands, Flags>): Promise<number>;
}

/** A repeatable flag's values, in the order given. */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export const jsonFlag = (description: string): OptionSpec => ({ flags: '--json', description });

export const GLOBAL_OPTIONS: readonly OptionSpec[] = [
  { flags: '-c, --config <path>', description: 'configuration file (default: discovered mcp_config.json)' },
  { flags: '-m, --model <name>', description: 'Ollama model (overrides MCP_CHAT_MODEL and the config)' },
  { flags: '--host <url>', description: 'Ollama URL (overrides OLLAMA_HOST and the config)' },
  { flags: '--debug', description: 'verbose logging and raw model output' },
  {
    flags: '--trust',
    description: "use this directory's mcp_config.json and .env for this run only, unremembered",
  },
  {
    flags: '--accept-tool-changes',
    description: 'offer tools new or changed since you accepted them, for this run only, unremembered',
  },
  {
    flags: '--think [level]',
    description: 'reasoning for a model that can think: on, off, low, medium, high or max (bare: on)',
  },
];
