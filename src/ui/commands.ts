/**
 * Running the built-in REPL commands (command-line.ts reads them off a line): each gives the
 * lines the scrollback shows. Plain data in, data out: no React here.
 */
import { OllamaError, assertNever } from '../shared/errors.js';
import type { ChatSession, ServerStatus } from '../session/chat-session.js';
import { formatToolList, toolBudget } from '../present/tool-list.js';
import { toolCount } from '../present/tool-line.js';
import { formatPromptList } from '../present/offers-list.js';
import { twoColumns } from '../present/listing-layout.js';
import { formatStats } from '../present/usage.js';
import { switchThink } from '../session/think-switch.js';
import { formatTaskList } from '../present/task-list.js';
import type { PromptInfo } from '../vocabulary/offers.js';
import { COMMANDS, type ParsedInput } from './command-line.js';
import { attempt, type CommandResult, info, listing } from './command-result.js';
import { sessionCommand } from './session-commands.js';
import { authorizeServer } from '../session/server-auth.js';

function helpText(prompts: PromptInfo[]): string {
  const lines = twoColumns(Object.entries(COMMANDS), '  ');
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
    'Keys: Enter sends · Alt+Enter, Ctrl+J or \\ then Enter: a new line · Tab completes (commands, prompts, their arguments, @resources) · ↑/↓ history · Ctrl+R searches it · Esc or Ctrl+C cancels a reply',
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

type ServerCommand = 'watch' | 'unwatch' | 'reload' | 'enable' | 'disable' | 'auth' | 'loglevel' | 'tasks';

/** The commands that steer the servers: each answers with one line, or what went wrong. */
function serverLine(name: ServerCommand, [first = '', second = '']: string[], session: ChatSession): Promise<string> {
  const { servers } = session;
  switch (name) {
    case 'watch':
    case 'unwatch':
      return servers.watch(first, name === 'watch');
    case 'reload':
      return servers.reloadConfig();
    case 'enable':
    case 'disable':
      return servers.setServerEnabled(first, name === 'enable');
    case 'auth':
      return authorizeServer(session, first);
    case 'loglevel':
      return servers.setServerLogLevel(first, second);
    case 'tasks':
      return servers.tasks().then(formatTaskList);
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
      return { items: [listing(helpText(await session.offers.prompts()))] };
    case 'tools': {
      const { servers, runtime } = session;
      return {
        items: [
          listing(
            formatToolList(
              session.listTools(),
              toolBudget(session.context.tokens, runtime.config),
              servers.turnedOffTools(),
              servers.heldBackTools(),
            ),
          ),
        ],
      };
    }
    case 'servers':
      return { items: [listing(serversText(session))] };
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
    case 'reload':
    case 'enable':
    case 'disable':
    case 'auth':
    case 'loglevel':
    case 'tasks': {
      const { name, args } = command;
      return { items: [await attempt(() => serverLine(name, args, session))] };
    }
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
