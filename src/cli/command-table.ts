/**
 * Every command of the command line, in the order `--help` lists them. Each action imports its
 * command's module when it runs: `ask` and `call` must not pay for the REPL's Ink and markdown.
 */
import type { Command } from 'commander';
import { parseMaxSteps, readPrompt } from './read-prompt.js';
import { collect, GLOBAL_OPTIONS, jsonFlag, type CommandSpec, type Invocation } from './command-spec.js';
import type { AddOptions, McpTarget } from './mcp-command.js';
import type { Output } from './output.js';
import { DEFAULT_MAX_STEPS } from '../session/limits.js';
import type { Runtime } from '../session/runtime.js';
import { globals, scriptRuntime } from './script-runtime.js';
import { TOOLS_COMMAND } from './tools-spec.js';
import { MCP_SERVER_COMMAND } from './mcp-server-spec.js';

/** `ask`'s own flags, as commander parses them. */
interface AskFlags {
  json?: boolean;
  yes?: boolean;
  maxSteps: number;
  session?: string;
  outputFormat?: 'text' | 'json' | 'stream-json';
  outputSchema?: string;
  pretty?: boolean;
}

interface JsonFlag {
  json?: boolean;
}

/** A command that starts the servers, prints what they offer and exits. */
type ListingCommand = (runtime: Runtime, output: Output, options: JsonFlag) => Promise<number>;

/** The file `mcp add|remove|list` edit: they need no runtime, as the file may not exist yet. */
function mcpTarget(command: Command): McpTarget {
  return { config: globals(command).config, env: process.env };
}

function listing(
  name: string,
  description: string,
  json: string,
  load: () => Promise<ListingCommand>,
): CommandSpec<[], JsonFlag> {
  return {
    name,
    description,
    takesGlobals: true,
    options: [jsonFlag(json)],
    async run({ flags, command, output }) {
      const list = await load();
      return list(await scriptRuntime(command, output), output, flags);
    },
  };
}

const MCP_COMMANDS: readonly CommandSpec[] = [
  {
    name: 'add',
    description: 'add a server: mcp add <name> <url>, or mcp add <name> -- <command> [args…]',
    arguments: [
      ['<name>', 'the server name'],
      ['<what...>', 'a URL, or -- and the command with its arguments'],
    ],
    takesGlobals: true,
    options: [
      {
        flags: '-e, --env <NAME=VALUE>',
        description: 'an environment variable for the command (repeatable)',
        parse: collect,
      },
      { flags: '-H, --header <Name: value>', description: 'an HTTP header for the URL (repeatable)', parse: collect },
      {
        flags: '--transport <kind>',
        description: 'for a URL: http or sse (default: http, falling back to sse)',
        choices: ['http', 'sse'],
      },
      { flags: '-f, --force', description: 'replace a server of that name' },
    ],
    async run({ operands: [name, what], flags, command, output }: Invocation<[string, string[]], AddOptions>) {
      const { mcpAdd } = await import('./mcp-command.js');
      return mcpAdd(mcpTarget(command), output, name, what, flags);
    },
  },
  {
    name: 'remove',
    description: 'remove a server',
    arguments: [['<name>', 'the server name']],
    takesGlobals: true,
    async run({ operands: [name], command, output }: Invocation<[string], object>) {
      const { mcpRemove } = await import('./mcp-command.js');
      return mcpRemove(mcpTarget(command), output, name);
    },
  },
  {
    name: 'list',
    description: 'list the servers in that file',
    takesGlobals: true,
    options: [jsonFlag('print a JSON array of { name, type, command, args, url, disabled }')],
    async run({ flags, command, output }: Invocation<[], JsonFlag>) {
      const { mcpList } = await import('./mcp-command.js');
      return mcpList(mcpTarget(command), output, flags);
    },
  },
];

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'chat',
    description: 'the interactive chat (the default command)',
    isDefault: true,
    takesGlobals: true,
    options: [
      { flags: '--resume [name]', description: 'continue a saved session (bare or "latest": the most recent one)' },
    ],
    async run({ flags, command, output }: Invocation<[], { resume?: string | true }>) {
      const { chatCommand } = await import('./chat-command.js');
      const resume = flags.resume === true ? 'latest' : flags.resume;
      return chatCommand(globals(command), output, resume === undefined ? {} : { resume });
    },
  },
  {
    name: 'ask',
    description: 'answer one prompt (from the arguments, or stdin when none or "-") and exit',
    arguments: [['[prompt...]', 'the prompt']],
    takesGlobals: true,
    options: [
      jsonFlag('print one JSON object, on one line: { answer, model, toolCalls, steps, denied, … }'),
      { flags: '--pretty', description: 'with --json: indent the object for reading' },
      {
        flags: '-y, --yes',
        description: 'approve tools that need approval, and servers asking to use the model (sampling)',
      },
      {
        flags: '--max-steps <n>',
        description: 'model calls allowed for this prompt',
        parse: parseMaxSteps,
        default: DEFAULT_MAX_STEPS,
      },
      {
        flags: '--session <name>',
        description: 'continue (or start) the named session, and save it with this exchange',
      },
      {
        flags: '--output-format <format>',
        description: 'text (the answer), json (as --json) or stream-json (a JSON line per event)',
        choices: ['text', 'json', 'stream-json'],
      },
      {
        flags: '--output-schema <file>',
        description: 'the answer must be JSON conforming to this JSON Schema (Ollama structured output)',
      },
    ],
    async run({ operands: [words], flags, command, output }: Invocation<[string[]], AskFlags>) {
      const base = await scriptRuntime(command, output);
      const prompt = await readPrompt(words, process.stdin);
      const { askCommand } = await import('./ask-command.js');
      const { openAskSession } = await import('./ask-session.js');
      const { runtime, session } = openAskSession(base, flags.session, globals(command).model !== undefined);
      return askCommand(runtime, output, prompt, { ...flags, session });
    },
  },
  {
    name: 'acp',
    description: 'an Agent Client Protocol agent on stdin/stdout, for editors (see docs/editors.md)',
    takesGlobals: true,
    async run({ command }) {
      const { acpCommand } = await import('../acp/acp-command.js');
      return acpCommand(globals(command));
    },
  },
  {
    name: 'doctor',
    description: 'check Ollama, the model and every configured server',
    takesGlobals: true,
    async run({ command, output }) {
      const { doctorCommand } = await import('./doctor-command.js');
      return doctorCommand(await scriptRuntime(command, output), output);
    },
  },
  {
    name: 'pull',
    description: 'download a model through Ollama (the configured one when none is named), with progress',
    arguments: [['[model]', 'the model, as `ollama pull` takes it (e.g. qwen3, llama3.2:1b)']],
    takesGlobals: true,
    options: [jsonFlag('print one JSON object: { model, status, bytes, durationMs }')],
    async run({ operands: [model], flags, command, output }: Invocation<[string | undefined], JsonFlag>) {
      const { pullCommand } = await import('./pull-command.js');
      return pullCommand(await scriptRuntime(command, output), output, model, flags);
    },
  },
  TOOLS_COMMAND,
  listing(
    'prompts',
    'start the configured servers, list their prompts and exit',
    'print a JSON array of { server, name, title, description, arguments }',
    async () => (await import('./offers-commands.js')).promptsCommand,
  ),
  listing(
    'resources',
    'start the configured servers, list their resources and resource templates and exit',
    'print a JSON object { resources, templates }',
    async () => (await import('./offers-commands.js')).resourcesCommand,
  ),
  listing(
    'tasks',
    'start the configured servers, list the tasks they know (status, times) and exit',
    'print a JSON array of { server, taskId, status, statusMessage, createdAt, lastUpdatedAt, tool }',
    async () => (await import('./tasks-command.js')).tasksCommand,
  ),
  {
    name: 'call',
    description: 'call one tool directly, without the model, and print its result',
    arguments: [
      ['<server>', 'server name from the configuration'],
      ['<tool>', 'tool name'],
      ['[json-args]', 'arguments as a JSON object, e.g. \'{"expression":"2+2"}\''],
    ],
    takesGlobals: true,
    options: [{ flags: '-y, --yes', description: 'let a server that asks for a completion (sampling) use the model' }],
    async run(invocation: Invocation<[string, string, string | undefined], { yes?: boolean }>) {
      const {
        operands: [server, tool, json],
        flags,
        command,
        output,
      } = invocation;
      const { callCommand } = await import('./call-command.js');
      const runtime = await scriptRuntime(command, output);
      return callCommand(runtime, output, { server, tool, json }, flags);
    },
  },
  {
    name: 'serve',
    description: 'the chat over WebSocket for several clients, and a page in the browser (prints its URL)',
    options: [
      ...GLOBAL_OPTIONS.filter((option) => !option.flags.startsWith('--host')),
      { flags: '--host <addr>', description: 'the address to bind (default 127.0.0.1; else --token is needed)' },
      { flags: '--port <n>', description: 'the port (default 7860; 0: any free one)' },
      { flags: '--token <secret>', description: 'the access token clients send (default: a new one each run)' },
      {
        flags: '--heartbeat <seconds>',
        description: 'time between pings; a connection that misses one is closed (30)',
      },
    ],
    async run({ flags, command, output }: Invocation<[], { port?: string; token?: string; heartbeat?: string }>) {
      const { serveCommand } = await import('../serve/serve-command.js');
      const { serveHosts } = await import('./serve-args.js');
      // Commander has merged both `--host`s into the program's flag: the command line tells them apart.
      const hosts = serveHosts(process.argv.slice(2), command.name());
      return serveCommand({ ...globals(command), host: hosts.ollama }, output, { ...flags, bind: hosts.bind });
    },
  },
  {
    name: 'sessions',
    description: 'list the saved sessions (name, date, model, turns, first line) and exit',
    options: [jsonFlag('print a JSON array of { name, model, createdAt, updatedAt, turns, title }')],
    async run({ flags, output }: Invocation<[], JsonFlag>) {
      const { sessionsCommand } = await import('./sessions-command.js');
      return sessionsCommand(output, flags);
    },
  },
  {
    name: 'auth',
    description: 'authorise a remote server with OAuth in the browser (again); --logout forgets its tokens',
    arguments: [['<server>', 'server name from the configuration']],
    takesGlobals: true,
    options: [{ flags: '--logout', description: 'forget the tokens and registered client stored for that server' }],
    async run({ operands: [server], flags, command, output }: Invocation<[string], { logout?: boolean }>) {
      const { authCommand } = await import('./auth-command.js');
      return authCommand(await scriptRuntime(command, output), output, server, flags);
    },
  },
  {
    name: 'trust',
    description: "trust this directory's mcp_config.json and .env as they are now (remembered until they change)",
    takesGlobals: true,
    options: [
      { flags: '--forget', description: "forget this directory's files" },
      { flags: '--list', description: 'list every trusted file, and whether it has changed since' },
    ],
    async run({ flags, command, output }: Invocation<[], { forget?: boolean; list?: boolean }>) {
      const { trustCommand } = await import('./trust-command.js');
      return trustCommand(output, { ...flags, host: globals(command).host });
    },
  },
  {
    name: 'mcp',
    description: "add, remove and list servers in the user's config file",
    subcommands: MCP_COMMANDS,
  },
  MCP_SERVER_COMMAND,
];
