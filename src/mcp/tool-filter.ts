/**
 * The tools of a server the user has turned off in its entry: `includeTools` keeps only those
 * named, then `excludeTools` drops those named. A tool turned off is neither offered to the model
 * nor called for a call the model writes anyway; `tools` still names it, so it is not a mystery.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig } from '../config/types.js';

export interface FilteredTools {
  enabled: Tool[];
  /** Names of the tools the entry turns off. */
  disabled: string[];
}

export function filterTools(tools: Tool[], config: Pick<ServerConfig, 'includeTools' | 'excludeTools'>): FilteredTools {
  const { includeTools, excludeTools } = config;
  if (!includeTools && !excludeTools) return { enabled: tools, disabled: [] };
  const included = includeTools && new Set(includeTools);
  const excluded = new Set(excludeTools ?? []);
  const on = (tool: Tool): boolean => (!included || included.has(tool.name)) && !excluded.has(tool.name);
  return { enabled: tools.filter(on), disabled: tools.filter((tool) => !on(tool)).map((tool) => tool.name) };
}
