/**
 * `mcp-chat tools [--json]`: start the configured servers, list their tools, exit.
 * `--json` prints exactly `[{ server, name, description, inputSchema }]`.
 */
import { formatToolList, toolBudget } from '../present/tool-list.js';
import { withHost } from '../session/with-host.js';
import type { Runtime } from '../session/runtime.js';
import { ExitCode } from '../shared/errors.js';
import { jsonForTerminal } from '../shared/terminal-text.js';
import type { Output } from './output.js';

export async function toolsCommand(runtime: Runtime, output: Output, options: { json?: boolean }): Promise<number> {
  const { tools, turnedOff } = await withHost(runtime, output, async (host) => ({
    tools: host.listTools(),
    turnedOff: host.turnedOffTools(),
  }));
  if (options.json) {
    const rows = tools.map(({ server, name, description, inputSchema }) => ({
      server,
      name,
      description,
      inputSchema,
    }));
    output.stdout(jsonForTerminal(rows));
  } else {
    output.stdout(formatToolList(tools, toolBudget(runtime.config), turnedOff));
  }
  return ExitCode.ok;
}
