/**
 * Built-in REPL commands as typed, bare (`tools`) or with a slash (`/tools`), any case: which
 * command a line is, the nearest one to a typo, and Tab's candidates. Plain data in, data out.
 */
import type { PromptInfo, ResourceInfo } from '../vocabulary/offers.js';

/** Each command and what `help` says of it. */
export const COMMANDS = {
  help: 'show this help',
  tools: 'list the tools by server, with their parameters',
  servers: 'show each server: state, tool count, start time, last error',
  debug: 'toggle debug output: raw model replies, parsed calls, timings, debug logging',
  clear: 'forget the conversation and clear the screen',
  compact: 'replace the earlier turns with a summary the model writes, keeping the latest ones',
  model: 'show the model, or switch: model <name> (one not pulled yet is offered for download)',
  think: "switch the model's reasoning on or off, or set it: /think on|off|low|medium|high|max",
  stats: 'what the session cost: turns, tokens in and out, tokens/s, time in the model and in tools',
  watch: 'show when a resource changes: /watch @server:uri',
  unwatch: 'stop that: /unwatch @server:uri',
  loglevel: 'set which log messages a server sends to the log file: /loglevel <server> <level>',
  reload: 'read the config file again: added servers start, removed ones stop, changed ones restart',
  enable: 'turn a server turned off with /disable on again: /enable <server>',
  disable: 'turn a server off for now (stopped, its tools not offered): /disable <server>',
  auth: 'authorise a remote server with OAuth, in the browser (again): /auth <server>',
  tasks: "list the servers' tasks (long tool calls run as tasks) and their states",
  resume: 'continue a saved session: /resume [name] (the latest when none is named)',
  save: 'save this chat under a name, and keep saving it there: /save <name>',
  sessions: 'list the saved sessions: name, date, model, turns, first line',
  delete: 'delete a saved session: /delete <name>',
  export: 'write this session to a file: /export <file.md|file.json>',
  quit: 'exit (also: exit, Ctrl+D, Ctrl+C at an empty prompt)',
} as const;
export type CommandName = keyof typeof COMMANDS;

const ALIASES: Record<string, CommandName> = { exit: 'quit', '?': 'help' };

export type ParsedInput =
  | { type: 'message'; text: string }
  | { type: 'command'; name: CommandName; args: string[] }
  | { type: 'unknown-command'; text: string; suggestion?: CommandName };

function lookup(word: string): CommandName | undefined {
  const lower = word.toLowerCase();
  if (lower in COMMANDS) return lower as CommandName;
  return ALIASES[lower];
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j] ?? 0;
      row[j] = Math.min(current + 1, (row[j - 1] ?? 0) + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length] ?? 0;
}

function suggest(word: string): CommandName | undefined {
  const names = [...Object.keys(COMMANDS), ...Object.keys(ALIASES)];
  const best = names
    .map((name) => ({ name, distance: editDistance(word.toLowerCase(), name) }))
    .sort((x, y) => x.distance - y.distance)[0];
  return best && best.distance <= 2 ? lookup(best.name) : undefined;
}

/** `isPrompt`: whether `/word` runs a server's prompt (`/server:name`, or a prompt name), which goes to the model. */
export function parseInput(raw: string, isPrompt: (word: string) => boolean = () => false): ParsedInput {
  const text = raw.trim();
  const [first = '', ...args] = text.split(/\s+/);
  const slash = first.startsWith('/');
  const name = lookup(slash ? first.slice(1) : first);
  if (slash && !name && isPrompt(first.slice(1))) return { type: 'message', text };
  // Bare words are commands only when typed alone (or `model <name>`), so "tools are great" is a message.
  const bareShape = args.length === 0 || (name === 'model' && args.length === 1);
  if (name && (slash || bareShape)) return { type: 'command', name, args };
  if (slash && !text.includes(' ', 1) && first.length > 1)
    return { type: 'unknown-command', text: first, suggestion: suggest(first.slice(1)) };
  return { type: 'message', text };
}

/** Tab's candidates for a word: commands and prompts after `/`, resources after `@`. */
export function completionsFor(word: string, offers: { prompts: PromptInfo[]; resources: ResourceInfo[] }): string[] {
  if (word.startsWith('@')) return offers.resources.map((resource) => `@${resource.server}:${resource.uri}`);
  if (!word.startsWith('/')) return [];
  const named = (name: string): number => offers.prompts.filter((prompt) => prompt.name === name).length;
  return [
    ...Object.keys(COMMANDS).map((name) => `/${name}`),
    ...offers.prompts.map((prompt) => `/${prompt.server}:${prompt.name}`),
    ...offers.prompts.filter((prompt) => named(prompt.name) === 1).map((prompt) => `/${prompt.name}`),
  ];
}
