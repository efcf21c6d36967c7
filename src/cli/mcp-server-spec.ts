/**
 * `mcp-chat mcp-server [--http <port>] [--token <token>] [--expose-tools] [--max-steps <n>]` as the
 * command line takes it; the server's code is loaded only when the command runs.
 */
import { UsageError } from '../shared/errors.js';
import { DEFAULT_MAX_STEPS } from '../session/limits.js';
import type { McpServerOptions } from '../mcp-server/mcp-server-command.js';
import { type CommandSpec, type Invocation } from './command-spec.js';
import { parseMaxSteps } from './read-prompt.js';
import { globals, scriptRuntime } from './script-runtime.js';

type McpServerFlags = Omit<McpServerOptions, 'modelGiven'>;

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new UsageError(`--http takes a port number from 0 to 65535, got "${value}"`);
  return port;
}

export const MCP_SERVER_COMMAND: CommandSpec<[], McpServerFlags> = {
  name: 'mcp-server',
  description: "be an MCP server for another agent: a `chat` tool (and the servers' tools with --expose-tools)",
  takesGlobals: true,
  options: [
    {
      flags: '--http <port>',
      description: 'serve Streamable HTTP on 127.0.0.1:<port>/mcp (0: any free port) instead of stdio',
      parse: parsePort,
    },
    { flags: '--token <token>', description: 'with --http: the bearer token callers must send (default: a new one)' },
    { flags: '--expose-tools', description: "also offer the configured servers' tools, named server__tool" },
    {
      flags: '--max-steps <n>',
      description: 'model calls allowed for each chat call',
      parse: parseMaxSteps,
      default: DEFAULT_MAX_STEPS,
    },
  ],
  async run({ flags, command, output }: Invocation<[], McpServerFlags>) {
    if (flags.token !== undefined && flags.http === undefined)
      throw new UsageError('--token is for --http: a stdio server is reached only by the process that started it');
    const runtime = await scriptRuntime(command, output);
    const { mcpServerCommand } = await import('../mcp-server/mcp-server-command.js');
    return mcpServerCommand(runtime, output, { ...flags, modelGiven: globals(command).model !== undefined });
  },
};
