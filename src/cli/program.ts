/**
 * The command line: commander definitions only. Each action builds the runtime from
 * the global flags (accepted before or after the command) and returns an exit code.
 * Commands load on use: `ask` and `call` must not pay for the REPL's Ink and markdown.
 */
import { Command, Option } from 'commander';
import { PACKAGE_VERSION } from '../shared/paths.js';
import { parseMaxSteps, readPrompt } from './read-prompt.js';
import type { AddOptions } from './mcp-command.js';
import type { Output } from './output.js';
import { DEFAULT_MAX_STEPS } from '../session/limits.js';
import { createRuntime, type GlobalOptions, type Runtime } from '../session/runtime.js';

export type ExitCodeSink = (code: number) => void;

/** `ask`'s own flags, as commander parses them. */
interface AskFlags {
  json?: boolean;
  yes?: boolean;
  maxSteps: number;
  session?: string;
  outputFormat?: 'text' | 'json' | 'stream-json';
  outputSchema?: string;
}

function addGlobalOptions(command: Command): Command {
  return command
    .addOption(new Option('-c, --config <path>', 'configuration file (default: discovered mcp_config.json)'))
    .addOption(new Option('-m, --model <name>', 'Ollama model (overrides MCP_CHAT_MODEL and the config)'))
    .addOption(new Option('--host <url>', 'Ollama URL (overrides OLLAMA_HOST and the config)'))
    .addOption(new Option('--debug', 'verbose logging and raw model output'))
    .addOption(new Option('--trust', "use this directory's mcp_config.json and .env for this run only, unremembered"))
    .addOption(
      new Option('--think [level]', 'reasoning for a model that can think: on, off, low, medium or high (bare: on)'),
    );
}

/** Global flags merged from the program and the subcommand, whichever side they were given on. */
function globals(command: Command): GlobalOptions {
  return command.optsWithGlobals<GlobalOptions>();
}

/** A script's runtime: an untrusted ./mcp_config.json is refused, and notices are shown only on a terminal. */
function scriptRuntime(command: Command, output: Output): Promise<Runtime> {
  return createRuntime(globals(command), {
    notify: (line) => {
      if (output.stderrIsTty) output.stderr(`notice: ${line}\n`);
    },
  });
}

export function buildProgram(output: Output, setExitCode: ExitCodeSink): Command {
  // exitOverride first: subcommands inherit it only when they are created after it.
  const program = addGlobalOptions(new Command('mcp-chat').exitOverride())
    .description('Chat with a local Ollama model that can use MCP tools')
    .version(PACKAGE_VERSION)
    .showHelpAfterError('(run mcp-chat --help for usage)');

  addGlobalOptions(program.command('chat', { isDefault: true }))
    .description('the interactive chat (the default command)')
    .option('--resume [name]', 'continue a saved session (bare or "latest": the most recent one)')
    .action(async (options: { resume?: string | true }, command: Command) => {
      const { chatCommand } = await import('./chat-command.js');
      const resume = options.resume === true ? 'latest' : options.resume;
      setExitCode(await chatCommand(globals(command), output, resume === undefined ? {} : { resume }));
    });

  addGlobalOptions(program.command('ask'))
    .description('answer one prompt (from the arguments, or stdin when none or "-") and exit')
    .argument('[prompt...]', 'the prompt')
    .option('--json', 'print one JSON object: { answer, model, toolCalls, steps }')
    .option('-y, --yes', 'approve tools that need approval, and servers asking to use the model (sampling)')
    .option('--max-steps <n>', 'model calls allowed for this prompt', parseMaxSteps, DEFAULT_MAX_STEPS)
    .option('--session <name>', 'continue (or start) the named session, and save it with this exchange')
    .addOption(
      new Option(
        '--output-format <format>',
        'text (the answer), json (as --json) or stream-json (a JSON line per event)',
      ).choices(['text', 'json', 'stream-json'] as const),
    )
    .option(
      '--output-schema <file>',
      'the answer must be JSON conforming to this JSON Schema (Ollama structured output)',
    )
    .action(async (words: string[], options: AskFlags, command: Command) => {
      const base = await scriptRuntime(command, output);
      const prompt = await readPrompt(words, process.stdin);
      const { askCommand } = await import('./ask-command.js');
      const { openAskSession } = await import('./ask-session.js');
      const { runtime, session } = openAskSession(base, options.session, globals(command).model !== undefined);
      setExitCode(await askCommand(runtime, output, prompt, { ...options, session }));
    });

  addGlobalOptions(program.command('doctor'))
    .description('check Ollama, the model and every configured server')
    .action(async (_options: unknown, command: Command) => {
      const { doctorCommand } = await import('./doctor-command.js');
      setExitCode(await doctorCommand(await scriptRuntime(command, output), output));
    });

  addGlobalOptions(program.command('pull'))
    .description('download a model through Ollama (the configured one when none is named), with progress')
    .argument('[model]', 'the model, as `ollama pull` takes it (e.g. qwen3, llama3.2:1b)')
    .option('--json', 'print one JSON object: { model, status, bytes, durationMs }')
    .action(async (model: string | undefined, options: { json?: boolean }, command: Command) => {
      const { pullCommand } = await import('./pull-command.js');
      setExitCode(await pullCommand(await scriptRuntime(command, output), output, model, options));
    });

  addGlobalOptions(program.command('tools'))
    .description('start the configured servers, list their tools and exit')
    .option('--json', 'print a JSON array of { server, name, description, inputSchema }')
    .action(async (options: { json?: boolean }, command: Command) => {
      const { toolsCommand } = await import('./tools-command.js');
      setExitCode(await toolsCommand(await scriptRuntime(command, output), output, options));
    });

  addGlobalOptions(program.command('prompts'))
    .description('start the configured servers, list their prompts and exit')
    .option('--json', 'print a JSON array of { server, name, title, description, arguments }')
    .action(async (options: { json?: boolean }, command: Command) => {
      const { promptsCommand } = await import('./offers-commands.js');
      setExitCode(await promptsCommand(await scriptRuntime(command, output), output, options));
    });

  addGlobalOptions(program.command('resources'))
    .description('start the configured servers, list their resources and resource templates and exit')
    .option('--json', 'print a JSON object { resources, templates }')
    .action(async (options: { json?: boolean }, command: Command) => {
      const { resourcesCommand } = await import('./offers-commands.js');
      setExitCode(await resourcesCommand(await scriptRuntime(command, output), output, options));
    });

  addGlobalOptions(program.command('tasks'))
    .description('start the configured servers, list the tasks they know (status, times) and exit')
    .option('--json', 'print a JSON array of { server, taskId, status, statusMessage, createdAt, lastUpdatedAt, tool }')
    .action(async (options: { json?: boolean }, command: Command) => {
      const { tasksCommand } = await import('./tasks-command.js');
      setExitCode(await tasksCommand(await scriptRuntime(command, output), output, options));
    });

  addGlobalOptions(program.command('call'))
    .description('call one tool directly, without the model, and print its result')
    .argument('<server>', 'server name from the configuration')
    .argument('<tool>', 'tool name')
    .argument('[json-args]', 'arguments as a JSON object, e.g. \'{"expression":"2+2"}\'')
    .option('-y, --yes', 'let a server that asks for a completion (sampling) use the model')
    .action(
      async (server: string, tool: string, json: string | undefined, options: { yes?: boolean }, command: Command) => {
        const { callCommand } = await import('./call-command.js');
        const runtime = await scriptRuntime(command, output);
        setExitCode(await callCommand(runtime, output, { server, tool, json }, options));
      },
    );

  program
    .command('sessions')
    .description('list the saved sessions (name, date, model, turns, first line) and exit')
    .option('--json', 'print a JSON array of { name, model, createdAt, updatedAt, turns, title }')
    .action(async (options: { json?: boolean }) => {
      const { sessionsCommand } = await import('./sessions-command.js');
      setExitCode(sessionsCommand(output, options));
    });

  addGlobalOptions(program.command('auth'))
    .description('authorise a remote server with OAuth in the browser (again); --logout forgets its tokens')
    .argument('<server>', 'server name from the configuration')
    .option('--logout', 'forget the tokens and registered client stored for that server')
    .action(async (server: string, options: { logout?: boolean }, command: Command) => {
      const { authCommand } = await import('./auth-command.js');
      setExitCode(await authCommand(await scriptRuntime(command, output), output, server, options));
    });

  program
    .command('trust')
    .description("trust this directory's mcp_config.json and .env as they are now (remembered until they change)")
    .option('--forget', "forget this directory's files")
    .option('--list', 'list every trusted file, and whether it has changed since')
    .action(async (options: { forget?: boolean; list?: boolean }) => {
      const { trustCommand } = await import('./trust-command.js');
      setExitCode(trustCommand(output, options));
    });

  addMcpCommands(program, output, setExitCode);
  return program;
}

/** `mcp add|remove|list`: they edit a config file, so they need no runtime (the file may not exist yet). */
function addMcpCommands(program: Command, output: Output, setExitCode: ExitCodeSink): void {
  const mcp = program.command('mcp').description("add, remove and list servers in the user's config file");
  const target = (command: Command) => ({ config: globals(command).config, env: process.env });
  const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
  addGlobalOptions(mcp.command('add'))
    .description('add a server: mcp add <name> <url>, or mcp add <name> -- <command> [args…]')
    .argument('<name>', 'the server name')
    .argument('<what...>', 'a URL, or -- and the command with its arguments')
    .option('-e, --env <NAME=VALUE>', 'an environment variable for the command (repeatable)', collect)
    .option('-H, --header <Name: value>', 'an HTTP header for the URL (repeatable)', collect)
    .addOption(
      new Option('--transport <kind>', 'for a URL: http or sse (default: http, falling back to sse)').choices([
        'http',
        'sse',
      ]),
    )
    .option('-f, --force', 'replace a server of that name')
    .action(async (name: string, what: string[], options: AddOptions, command: Command) => {
      const { mcpAdd } = await import('./mcp-command.js');
      setExitCode(mcpAdd(target(command), output, name, what, options));
    });
  addGlobalOptions(mcp.command('remove'))
    .description('remove a server')
    .argument('<name>', 'the server name')
    .action(async (name: string, _options: unknown, command: Command) => {
      const { mcpRemove } = await import('./mcp-command.js');
      setExitCode(mcpRemove(target(command), output, name));
    });
  addGlobalOptions(mcp.command('list'))
    .description('list the servers in that file')
    .option('--json', 'print a JSON array of { name, type, command, args, url, disabled }')
    .action(async (options: { json?: boolean }, command: Command) => {
      const { mcpList } = await import('./mcp-command.js');
      setExitCode(mcpList(target(command), output, options));
    });
}
