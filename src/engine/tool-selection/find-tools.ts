/**
 * `find_tools`: mcp-chat's own tool, offered when only part of the catalogue fits the budget.
 * The model describes what it needs; the best matches not offered yet are listed, and the
 * selection offers them from the next step on.
 */
import { BUILT_IN_SERVER, FIND_TOOLS_NAME, displayName, type ToolRef } from '../../vocabulary/tool-naming.js';
import type { ToolSpec } from '../../vocabulary/types.js';
import { firstSentence } from './compact-tool.js';
import { counted } from '../../shared/plural.js';

export { FIND_TOOLS_NAME };
/** Tools one search adds: enough to cover a task's few steps, few enough to keep the budget. */
export const FOUND_PER_SEARCH = 5;

export function isFindTools(ref: ToolRef): boolean {
  return ref.server === BUILT_IN_SERVER && ref.tool === FIND_TOOLS_NAME;
}

/** Every server of the catalogue, in the order first seen: what `find_tools` names as there to look in. */
export function catalogueServers(catalogue: ToolSpec[]): string[] {
  return [...new Set(catalogue.map((tool) => tool.server))];
}

/** `servers`: every server of the catalogue, so the model knows what there is to look for. */
export function findToolsSpec(offered: number, catalogue: number, servers: string[]): ToolSpec {
  return {
    server: BUILT_IN_SERVER,
    name: FIND_TOOLS_NAME,
    description:
      `Finds more tools: only ${offered} of the ${catalogue} available tools are offered now ` +
      `(servers: ${servers.join(', ')}). When none of them does what you need, describe the action in a ` +
      'few words; the best matches are offered from your next step on.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What the tool should do, e.g. "press a key in the browser".' },
      },
      required: ['query'],
    },
    annotations: { title: 'Find tools', readOnlyHint: true },
  };
}

export function foundToolsText(query: string, found: ToolSpec[], servers: string[]): string {
  if (found.length === 0) {
    return (
      `No tool that is not offered yet matches "${query}". Servers: ${servers.join(', ')}. ` +
      'Try other words, or answer with the tools you have.'
    );
  }
  const lines = found.map((tool) => `- ${displayName(tool)}: ${firstSentence(tool.description, 120)}`);
  return [`Found ${counted(found.length, 'tool')}; they are offered from your next step on:`, ...lines].join('\n');
}
