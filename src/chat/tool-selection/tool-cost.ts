/**
 * What one tool costs in a request, in the context check's own token estimate: natively, its
 * definition as the request carries it (Ollama writes it into the prompt); in text modes, its
 * lines in the system prompt's catalogue.
 */
import { estimateTextTokens } from '../conversation.js';
import { describeTool } from '../system-prompt.js';
import { modelName } from '../tool-naming.js';
import type { ToolProtocolName, ToolSpec } from '../types.js';

export function toolTokens(tool: ToolSpec, protocol: ToolProtocolName): number {
  if (protocol !== 'native') return estimateTextTokens(`${describeTool(tool).join('\n')}\n`);
  const definition = {
    type: 'function',
    function: { name: modelName(tool), description: tool.description, parameters: tool.inputSchema },
  };
  return estimateTextTokens(JSON.stringify(definition));
}

export function catalogueTokens(tools: ToolSpec[], protocol: ToolProtocolName): number {
  return tools.reduce((sum, tool) => sum + toolTokens(tool, protocol), 0);
}
