/**
 * Built-in REPL commands, typed bare (`tools`) or with a slash (`/tools`), any case.
 * Parsing and running them is plain data in, data out: no React here.
 */
import { OllamaError, assertNever } from '../shared/errors.js';
import type { NewHistoryItem } from './history.js';
import type { ChatSession, ServerStatus } from '../session/chat-session.js';
import { formatToolList, toolBudget } from '../present/tool-list.js';
import { toolCount } from '../present/tool-line.js';
import { formatPromptList } from '../present/offers-list.js';
import { formatStats } from '../present/usage.js';
import { switchThink } from '../session/think-switch.js';
import { formatTaskList } from '../present/task-list.js';
import type { PromptInfo, ResourceInfo } from '../vocabulary/offers.js';
import { formatSessionList } from '../present/session-list.js';
import { deleteSession, exportCurrentSession, saveSessionAs } from '../session/session-actions.js';
import { resumeSession } from '../session/session-resume.js';
import { resumedScreen } from './chat-state.js';
import { authorizeServer } from '../session/server-auth.js';

const COMMANDS = {
  help: 'show this help',
  tools: 'list the tools by server, with their parameters',
  servers: 'show each server: state, tool count, start time, last error',
  debug: 'toggle debug output: raw model replies, parsed calls, timings, debug logging',
  clear: 'forget the conversation and clear the screen',
  compact: 'replace the earlier turns with a summary the model writes, keeping the latest ones',
  model: 'show the model, or switch: model <name> (one not pulled yet is offered for download)',
  think: "switch the model's reasoning on or off, or set it: /think on|off|low|medium|high",
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

export interface CommandResult {
  items: NewHistoryItem[];
  /** Drawn before `items` but not saved again: a resumed session's own screen. */
  shown?: NewHistoryItem[];
  clear?: boolean;
  exit?: boolean;
  /** A model that is not pulled: the REPL asks whether to pull it. */
  offerPull?: string;
}

const info = (text: string): NewHistoryItem => ({ type: 'info', text });

function helpText(prompts: PromptInfo[]): string {
  const lines = Object.entries(COMMANDS).map(([name, what]) => `  ${name.padEnd(8)} ${what}`);
  const promptLines =
    prompts.length === 0
      ? []
      : [
          '',
          "Servers' prompts (their messages start a turn):",
          ...formatPromptList(prompts)
            .split('\n')
            .map((line) => `  ${line}`),
        ];
  return [
    'Commands (bare or with a slash):',
    ...lines,
    ...promptLines,
    '',
    'Attach a resource to a message with @server:uri (mcp-chat resources lists them).',
    'Keys: Enter sends · Tab completes (commands, prompts, their arguments, @resources) · ↑/↓ history · Ctrl+R searches it · Esc or Ctrl+C cancels a reply',
  ].join('\n');
}

/** Lines of a server's last error shown by `servers`: the message and the end of its output, where the cause usually is. */
const MAX_ERROR_LINES = 6;

function lastErrorLines(error: string): string[] {
  const [first = '', ...rest] = error.split('\n').filter((line) => line.trim() !== '');
  return [first, ...rest.slice(-(MAX_ERROR_LINES - 1))];
}

/** While a failing server is left alone: for how long, and why. */
function breakerText({ breaker }: ServerStatus): string {
  if (!breaker) return '';
  const why = `${breaker.failures} failed calls in a row`;
  return breaker.state === 'open'
    ? `, not called for ${Math.ceil(breaker.retryInMs / 1000)} s (${why})`
    : `, its next call tries it again (${why})`;
}

function serversText(session: ChatSession): string {
  const rows = session.statuses().map((s) => {
    const started = s.startMs === undefined ? '' : `, started in ${s.startMs} ms`;
    const error = s.lastError ? `\n      last error: ${lastErrorLines(s.lastError).join('\n      ')}` : '';
    return `  ${s.name.padEnd(12)} ${s.state}, ${toolCount(s.toolCount)}${started}${breakerText(s)}${error}`;
  });
  const disabled = session.disabledServers().map((d) => `  ${d.name.padEnd(12)} disabled: ${d.reason}`);
  return ['Servers:', ...rows, ...disabled].join('\n');
}

function debugText(session: ChatSession): string {
  const on = session.toggleDebug();
  const log = `log level ${session.logLevel} (${session.runtime.config.logging.file})`;
  return on ? `Debug on: raw model replies, parsed tool calls and timings are shown; ${log}.` : `Debug off; ${log}.`;
}

/** A command that may fail: its answer as a line, or what went wrong and what to do. */
async function attempt(run: () => Promise<string>): Promise<NewHistoryItem> {
  try {
    return info(await run());
  } catch (error) {
    const hint = error instanceof Error && 'hint' in error && typeof error.hint === 'string' ? error.hint : undefined;
    return { type: 'error', text: error instanceof Error ? error.message : String(error), hint };
  }
}

async function switchModel(session: ChatSession, name: string | undefined): Promise<CommandResult> {
  if (!name) return { items: [info(`Model: ${session.model}`)] };
  try {
    await session.switchModel(name);
    return { items: [info(`Model switched to ${name}.`)] };
  } catch (error) {
    const items = [await attempt(() => Promise.reject(error))];
    // Not pulled yet: said as before, and the REPL offers to download it (ui/model-pull.ts).
    const notPulled = error instanceof OllamaError && error.kind === 'model-missing' && session.canPullModels;
    return notPulled ? { items, offerPull: name } : { items };
  }
}

async function thinkText(session: ChatSession, word: string | undefined): Promise<string> {
  const now = { setting: session.think, model: session.model, canThink: await session.modelCanThink() };
  const result = switchThink(now, word);
  if (result.type === 'error') throw new Error(result.text);
  session.setThink(result.think);
  return result.text;
}

type SessionCommand = 'resume' | 'save' | 'sessions' | 'delete' | 'export';

/** The saved-session commands; the REPL's session always has a keeper, a test's may not. */
async function sessionCommand(
  name: SessionCommand,
  arg: string | undefined,
  session: ChatSession,
): Promise<CommandResult> {
  const keeper = session.keeper;
  if (!keeper) return { items: [{ type: 'error', text: 'This chat keeps no sessions.' }] };
  switch (name) {
    case 'resume':
      try {
        const { saved, note } = await resumeSession(session, arg ?? 'latest');
        const { shown, said } = resumedScreen(saved, note);
        return { shown, items: [said], clear: true };
      } catch (error) {
        // `attempt` turns the failure (a damaged file, a newer format, no such session) into its line.
        return { items: [await attempt(() => Promise.reject(error))] };
      }
    case 'save':
      return { items: [await attempt(async () => saveSessionAs(keeper, arg))] };
    case 'sessions':
      return {
        items: [
          await attempt(async () => {
            const { sessions, problems } = keeper.store.list();
            const list = formatSessionList(sessions, new Date(), keeper.sessionName);
            return [list, ...problems.map((problem) => `  ✗ ${problem.message}`)].join('\n');
          }),
        ],
      };
    case 'delete':
      return { items: [await attempt(async () => deleteSession(keeper, arg))] };
    case 'export':
      return { items: [await attempt(async () => exportCurrentSession(keeper, arg, process.cwd()))] };
    default:
      return assertNever(name);
  }
}

export async function runCommand(
  command: Extract<ParsedInput, { type: 'command' }>,
  session: ChatSession,
): Promise<CommandResult> {
  switch (command.name) {
    case 'help':
      return { items: [info(helpText(await session.prompts()))] };
    case 'tools':
      return {
        items: [
          info(formatToolList(session.listTools(), toolBudget(session.runtime.config), session.turnedOffTools())),
        ],
      };
    case 'servers':
      return { items: [info(serversText(session))] };
    case 'debug':
      return { items: [info(debugText(session))] };
    case 'clear':
      session.clearConversation();
      return { items: [], clear: true };
    case 'compact':
      return { items: [info(await session.compact())] };
    case 'model':
      return switchModel(session, command.args[0]);
    case 'think':
      return { items: [await attempt(() => thinkText(session, command.args[0]))] };
    case 'stats':
      return { items: [info(formatStats(session.stats.snapshot()))] };
    case 'watch':
    case 'unwatch':
      return { items: [await attempt(() => session.watch(command.args[0] ?? '', command.name === 'watch'))] };
    case 'reload':
      return { items: [await attempt(() => session.reloadConfig())] };
    case 'enable':
    case 'disable':
      return {
        items: [await attempt(() => session.setServerEnabled(command.args[0] ?? '', command.name === 'enable'))],
      };
    case 'auth':
      return { items: [await attempt(() => authorizeServer(session, command.args[0] ?? ''))] };
    case 'loglevel':
      return {
        items: [await attempt(() => session.setServerLogLevel(command.args[0] ?? '', command.args[1] ?? ''))],
      };
    case 'tasks':
      return { items: [await attempt(async () => formatTaskList(await session.tasks()))] };
    case 'resume':
    case 'save':
    case 'sessions':
    case 'delete':
    case 'export':
      return sessionCommand(command.name, command.args[0], session);
    case 'quit':
      return { items: [], exit: true };
    default:
      return assertNever(command.name);
  }
}
