/**
 * What one tool costs in a request, in the context check's own token estimate: natively, its
 * definition as the request carries it (Ollama writes it into the prompt); in text modes, its
 * lines in the system prompt's catalogue.
 */
import { estimateTextTokens } from '../conversation.js';
import {
  describeTool,
  LISTED_TOOLS_INTRO,
  listedTool,
  quotedInstructions,
  SERVER_NOTES_HEADING,
  serverHeading,
  serverNote,
} from '../system-prompt.js';
import { modelName } from '../../vocabulary/tool-naming.js';
import type { ToolProtocolName, ToolSpec } from '../../vocabulary/types.js';

/**
 * Costs by tool object, per protocol: every request of a session prices the same (cached) tool
 * forms again, and writing a definition out is most of what a selection takes.
 */
const known = new Map<ToolProtocolName, WeakMap<ToolSpec, number>>();

export function toolTokens(tool: ToolSpec, protocol: ToolProtocolName): number {
  let costs = known.get(protocol);
  if (!costs) known.set(protocol, (costs = new WeakMap()));
  let cost = costs.get(tool);
  if (cost === undefined) costs.set(tool, (cost = measure(tool, protocol)));
  return cost;
}

function measure(tool: ToolSpec, protocol: ToolProtocolName): number {
  if (protocol !== 'native') return estimateTextTokens(`${describeTool(tool).join('\n')}\n`);
  const definition = {
    type: 'function',
    function: { name: modelName(tool), description: tool.description, parameters: tool.inputSchema },
  };
  return estimateTextTokens(JSON.stringify(definition));
}

/** A listed tool's line, priced once per tool form like its definition. */
const listedLines = new WeakMap<ToolSpec, number>();
function listedLineTokens(tool: ToolSpec): number {
  let cost = listedLines.get(tool);
  if (cost === undefined) listedLines.set(tool, (cost = estimateTextTokens(`${listedTool(tool)}\n`)));
  return cost;
}

export function catalogueTokens(tools: ToolSpec[], protocol: ToolProtocolName): number {
  return tools.reduce((sum, tool) => sum + toolTokens(tool, protocol), 0);
}

/**
 * What one more tool listed in a native prompt costs: its lines, and the heading of its server when
 * it is the first of `listedServers` (the servers already listed), and the section's when it is the
 * first of all.
 */
export function listedTokens(tool: ToolSpec, listedServers: ReadonlySet<string>): number {
  const intro = listedServers.size === 0 ? estimateTextTokens(`\n${LISTED_TOOLS_INTRO}\n`) : 0;
  const heading = listedServers.has(tool.server) ? 0 : estimateTextTokens(`${serverHeading(tool.server)}\n`);
  return listedLineTokens(tool) + intro + heading;
}

/**
 * What a server's instructions add to the prompt when the first of its tools is offered (`noted`:
 * the servers whose instructions are counted already): natively, its note, and the notes' heading
 * with the first; in text modes, the quoted lines under its heading in the tool list. The prompt
 * quotes them beside the tools, so they are the tools' share of the context.
 */
export function instructionsTokens(tool: ToolSpec, protocol: ToolProtocolName, noted: ReadonlySet<string>): number {
  const text = tool.serverInstructions;
  if (text === undefined || noted.has(tool.server)) return 0;
  if (protocol !== 'native') return estimateTextTokens(`${quotedInstructions(text).join('\n')}\n`);
  const heading = noted.size === 0 ? estimateTextTokens(`\n${SERVER_NOTES_HEADING}\n`) : 0;
  return heading + estimateTextTokens(`${serverNote(tool.server, text).join('\n')}\n`);
}

/** What the instructions of the servers of `tools` add to the prompt. */
export function catalogueInstructionsTokens(tools: ToolSpec[], protocol: ToolProtocolName): number {
  const noted = new Set<string>();
  let tokens = 0;
  for (const tool of tools) {
    const cost = instructionsTokens(tool, protocol, noted);
    if (cost > 0) noted.add(tool.server);
    tokens += cost;
  }
  return tokens;
}
