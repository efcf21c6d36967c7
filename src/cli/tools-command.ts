/**
 * `mcp-chat tools [--json]`: start the configured servers, list their tools, exit.
 * `--json` prints exactly `[{ server, name, description, inputSchema }]`, and `serverInstructions` on
 * each tool of a server that gave `instructions` (as the model reads them: capped, secrets hidden).
 * `--changes` shows what waits for the user's acceptance instead; `--accept <server>` accepts it.
 */
import { ASSUMED_CONTEXT } from '../engine/context-window.js';
import { formatToolList, toolBudget } from '../present/tool-list.js';
import { withHost } from '../session/with-host.js';
import type { Runtime } from '../session/runtime.js';
import { ExitCode, UsageError } from '../shared/errors.js';
import { jsonForTerminal } from '../shared/terminal-text.js';
import type { Output } from './output.js';
import { printListing } from './print-listing.js';
import { toolChangesCommand } from './tool-changes-command.js';

export interface ToolsFlags {
  json?: boolean;
  changes?: boolean;
  accept?: string[];
}

export async function toolsCommand(runtime: Runtime, output: Output, options: ToolsFlags): Promise<number> {
  if (options.changes && options.accept)
    throw new UsageError('--changes and --accept are separate runs', '--accept prints what it accepts.');
  if (options.changes || options.accept) return toolChangesCommand(runtime, output, options);
  const { tools, turnedOff, heldBack } = await withHost(runtime, output, async (host) => ({
    tools: host.listTools(),
    turnedOff: host.turnedOffTools(),
    heldBack: host.heldBackTools(),
  }));
  if (options.json) {
    const rows = tools.map(({ server, name, description, inputSchema, serverInstructions }) => ({
      server,
      name,
      description,
      inputSchema,
      ...(serverInstructions === undefined ? {} : { serverInstructions }),
    }));
    output.stdout(jsonForTerminal(rows));
  } else {
    // No model is asked here: without num_ctx, the budget is the one a chat starts with.
    const numCtx = runtime.config.ollama.numCtx ?? ASSUMED_CONTEXT;
    printListing(output, formatToolList(tools, toolBudget(numCtx, runtime.config), turnedOff, heldBack));
  }
  return ExitCode.ok;
}
