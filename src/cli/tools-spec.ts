/**
 * `mcp-chat tools [--json] [--changes] [--accept <server>…]` as the command line takes it: the
 * tools, or what changed in them since the user accepted them, and accepting that.
 */
import { collect, jsonFlag, type CommandSpec, type Invocation } from './command-spec.js';
import { scriptRuntime } from './script-runtime.js';
import type { ToolsFlags } from './tools-command.js';

export const TOOLS_COMMAND: CommandSpec<[], ToolsFlags> = {
  name: 'tools',
  description: 'start the configured servers, list their tools and exit',
  takesGlobals: true,
  options: [
    jsonFlag(
      'print a JSON array of { server, name, description, inputSchema } (with --changes: of { server, changes })',
    ),
    {
      flags: '--changes',
      description: 'show the tools new or changed since you accepted them (held back from the model), as diffs',
    },
    {
      flags: '--accept <server>',
      description: "accept a server's new or changed tools as they are now, and remember them (repeatable)",
      parse: collect,
    },
  ],
  async run({ flags, command, output }: Invocation<[], ToolsFlags>) {
    const { toolsCommand } = await import('./tools-command.js');
    return toolsCommand(await scriptRuntime(command, output), output, flags);
  },
};
