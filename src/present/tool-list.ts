/** The tool catalogue for people, by server with each tool's parameters: `tools` and the REPL's `tools`. */
import { catalogueInstructionsTokens, catalogueTokens } from '../engine/tool-selection/tool-cost.js';
import type { ToolSpec } from '../vocabulary/types.js';
import { counted } from '../shared/plural.js';
import { twoColumns } from './listing-layout.js';

/** What the catalogue may take of each request: `num_ctx` and the configured share of it. */
export interface ToolBudget {
  numCtx: number;
  budgetShare: number;
}

function describeParameters(tool: ToolSpec): string {
  const properties = Object.keys(tool.inputSchema.properties ?? {});
  const required = new Set(tool.inputSchema.required ?? []);
  return properties.map((name) => (required.has(name) ? name : `${name}?`)).join(', ');
}

/**
 * The budget in a context of `numCtx` tokens, with a configuration's share (typed by shape: the
 * catalogue's printer knows nothing of config files).
 */
export function toolBudget(numCtx: number, config: { tools: { budgetShare: number } }): ToolBudget {
  return { numCtx, budgetShare: config.tools.budgetShare };
}

/**
 * The catalogue's size against its budget, as native tool definitions (the larger of the two forms)
 * with the servers' instructions the system prompt quotes beside them.
 */
function budgetLine(tools: ToolSpec[], { numCtx, budgetShare }: ToolBudget): string {
  const size = catalogueTokens(tools, 'native') + catalogueInstructionsTokens(tools, 'native');
  const budget = Math.floor(numCtx * budgetShare);
  const share = `${Math.round(budgetShare * 1000) / 10} % of num_ctx ${numCtx}`;
  const catalogue = `${counted(tools.length, 'tool')}, about ${size} tokens`;
  return size <= budget
    ? `${catalogue}: within the tool budget of ${budget} tokens (${share}); every request offers them all.`
    : `${catalogue}: over the tool budget of ${budget} tokens (${share}); each request offers the tools that fit, ` +
        'ranked for it, and find_tools for the rest.';
}

/**
 * `turnedOff`: tools each server's entry turns off (`includeTools`, `excludeTools`); `heldBack`:
 * tools new or changed since the user accepted them. Both are named at the end.
 */
export function formatToolList(
  tools: ToolSpec[],
  budget: ToolBudget,
  turnedOff: Record<string, string[]> = {},
  heldBack: Record<string, string[]> = {},
): string {
  const lines: string[] = [];
  for (const server of [...new Set(tools.map((tool) => tool.server))]) {
    lines.push(`${server}`);
    const rows = tools
      .filter((tool) => tool.server === server)
      .map((tool) => [`${tool.name}(${describeParameters(tool)})`, tool.description.split('\n')[0] ?? ''] as const);
    lines.push(...twoColumns(rows, '  '));
  }
  const off = [
    ...Object.entries(turnedOff).map(
      ([server, names]) => `Turned off in ${server}'s config entry (not offered, not callable): ${names.join(', ')}`,
    ),
    ...Object.entries(heldBack).map(
      ([server, names]) =>
        `Held back from the model, new or changed since you accepted ${server}'s tools (mcp-chat tools --changes): ${names.join(', ')}`,
    ),
  ];
  if (lines.length === 0 && off.length === 0) return 'No tools: no server is running.';
  return [...lines, ...(off.length > 0 ? ['', ...off] : []), '', budgetLine(tools, budget)].join('\n');
}
