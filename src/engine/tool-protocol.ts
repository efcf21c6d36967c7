/**
 * The ways tools reach a model, behind one interface: `native` offers them in the request's
 * tool list and keeps the system prompt short; `json` and `xml` list them in the system prompt
 * with the exact call to write (the detector reads both forms whichever is asked for). The
 * chatbot holds one protocol at a time.
 */
import { buildSystemPrompt } from './system-prompt.js';
import { modelName } from '../vocabulary/tool-naming.js';
import type { LlmToolDefinition, ToolProtocolName, ToolSpec } from '../vocabulary/types.js';

export interface ToolProtocol {
  readonly name: ToolProtocolName;
  /** `listed`: natively, offered tools that go as lines of the prompt (tool-selection.ts). */
  systemPrompt(tools: ToolSpec[], listed?: ToolSpec[]): string;
  /** What goes in the request's tool list; `undefined` when tools travel in the prompt. */
  offer(tools: ToolSpec[]): LlmToolDefinition[] | undefined;
}

const definitions = new WeakMap<ToolSpec[], LlmToolDefinition[]>();

/** Built once per catalogue: the host hands out the same array until a server's tools change. */
function toolDefinitions(tools: ToolSpec[]): LlmToolDefinition[] {
  let offered = definitions.get(tools);
  if (!offered) {
    offered = tools.map((tool) => ({
      name: modelName(tool),
      description: tool.description,
      parameters: tool.inputSchema,
    }));
    definitions.set(tools, offered);
  }
  return offered;
}

const PROTOCOLS: Record<ToolProtocolName, ToolProtocol> = {
  native: {
    name: 'native',
    systemPrompt: (tools, listed) => buildSystemPrompt(tools, 'native', listed),
    offer: toolDefinitions,
  },
  json: { name: 'json', systemPrompt: (tools) => buildSystemPrompt(tools, 'json'), offer: () => undefined },
  xml: { name: 'xml', systemPrompt: (tools) => buildSystemPrompt(tools, 'xml'), offer: () => undefined },
};

export function toolProtocol(name: ToolProtocolName): ToolProtocol {
  return PROTOCOLS[name];
}
