/**
 * `mcp-chat tools [--json]`: start the configured servers, list their tools, exit.
 * `--json` prints exactly `[{ server, name, description, inputSchema }]`.
 */
import type { ToolSpec } from '../chat/types.js';
import { ExitCode } from '../errors.js';
import type { Runtime } from './runtime.js';
import { withHost } from './with-host.js';
import { jsonForTerminal, type Output } from './output.js';

function describeParameters(tool: ToolSpec): string {
  const properties = Object.keys(tool.inputSchema.properties ?? {});
  const required = new Set(tool.inputSchema.required ?? []);
  return properties.map((name) => (required.has(name) ? name : `${name}?`)).join(', ');
}

export function formatToolList(tools: ToolSpec[]): string {
  const lines: string[] = [];
  for (const server of [...new Set(tools.map((tool) => tool.server))]) {
    lines.push(`${server}`);
    for (const tool of tools.filter((t) => t.server === server)) {
      const summary = tool.description.split('\n')[0] ?? '';
      lines.push(`  ${tool.name}(${describeParameters(tool)})${summary ? `  ${summary}` : ''}`);
    }
  }
  return lines.length > 0 ? lines.join('\n') : 'No tools: no server is running.';
}

export async function toolsCommand(runtime: Runtime, output: Output, options: { json?: boolean }): Promise<number> {
  const tools = await withHost(runtime, output, async (host) => host.listTools());
  if (options.json) {
    const rows = tools.map(({ server, name, description, inputSchema }) => ({ server, name, description, inputSchema }));
    output.stdout(jsonForTerminal(rows));
  } else {
    output.stdout(formatToolList(tools));
  }
  return ExitCode.ok;
}
