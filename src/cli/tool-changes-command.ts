/**
 * `mcp-chat tools --changes [--json]`: the tools each server offers new or changed since the user
 * accepted its tools, which the model is not offered, as diffs (`--json`: `[{ server, changes }]`).
 * `mcp-chat tools --accept <server>…`: those of the servers named accepted as they are now and
 * remembered; what was accepted is printed the same way.
 */
import { formatServerChanges, formatToolChanges } from '../present/tool-changes.js';
import type { Runtime } from '../session/runtime.js';
import { withHost } from '../session/with-host.js';
import { ExitCode, UsageError } from '../shared/errors.js';
import { jsonForTerminal } from '../shared/terminal-text.js';
import type { ServerToolChanges } from '../vocabulary/tool-pins.js';
import type { Output } from './output.js';

/** The servers named, as the config spells them; an unknown one is a usage error. */
function namedServers(runtime: Runtime, names: readonly string[]): string[] {
  const { servers, source } = runtime.config;
  return names.map((name) => {
    const found = servers.find((server) => server.name.toLowerCase() === name.toLowerCase());
    if (found) return found.name;
    const known = servers.map((server) => server.name).join(', ') || 'none';
    throw new UsageError(`unknown server "${name}" (configured: ${known})`, `Config file: ${source}`);
  });
}

export async function toolChangesCommand(
  runtime: Runtime,
  output: Output,
  options: { json?: boolean; accept?: string[] },
): Promise<number> {
  const accepting = namedServers(runtime, options.accept ?? []);
  const order = runtime.config.servers.map((server) => server.name);
  // What changed is this command's output, not a warning.
  const notices = { warn: output.warn, toolChanges: (): void => undefined };
  const { pending, accepted } = await withHost(runtime, notices, async (host, pins) => ({
    pending: (pins?.pending() ?? []).sort((a, b) => order.indexOf(a.server) - order.indexOf(b.server)),
    accepted: accepting.flatMap((server): ServerToolChanges[] => {
      const changes = pins?.accept(server);
      if (changes) return [changes];
      // A server that did not start offered nothing to compare (its failure is a warning already).
      const ready = host.statuses().some((status) => status.name === server && status.state === 'ready');
      output.stderr(
        `${server}: nothing to accept: ${ready ? 'it offers the tools you accepted' : 'it did not start'}.\n`,
      );
      return [];
    }),
  }));
  const shown = options.accept ? accepted : pending;
  if (options.json) output.stdout(jsonForTerminal(shown));
  else if (options.accept) {
    if (accepted.length > 0) output.stdout(acceptedText(accepted));
  } else output.stdout(formatToolChanges(pending));
  return ExitCode.ok;
}

function acceptedText(accepted: readonly ServerToolChanges[]): string {
  const servers = accepted.map((changes) => changes.server).join(', ');
  const diffs = accepted.map(formatServerChanges).join('\n\n');
  return `${diffs}\n\nAccepted and remembered (${servers}): these tools are offered as they are now from the next run.`;
}
