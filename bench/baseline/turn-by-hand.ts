/**
 * The baseline turn: what one `ask` turn with one tool call must do at the least, by
 * hand. Ask for the model's capabilities, stream its reply, run the tool call it makes,
 * stream the answer. The request bodies are prepared beforehand, identical to mcp-chat's.
 */
import { type ByHandFetch, requestJson, streamChat, type WireMessage } from './ollama-by-hand.js';

/** Everything a turn sends, prepared outside the timed part. */
export interface TurnPlan {
  ollamaUrl: string;
  model: string;
  system: string;
  prompt: string;
  /** Ollama's `tools` field, as mcp-chat offers the catalogue to a model with native tool calls. */
  tools: unknown[];
  options: Record<string, unknown>;
}

/** Runs one tool (`server__tool` already split) and returns the text for the model. */
export type ToolRunner = (server: string, tool: string, args: Record<string, unknown>) => Promise<string>;

/** `send`: the requests' transport, as ollama-by-hand.ts takes it (`fetch` when not given). */
export async function turnByHand(plan: TurnPlan, runTool: ToolRunner, send?: ByHandFetch): Promise<string> {
  await requestJson(`${plan.ollamaUrl}/api/show`, { model: plan.model }, send);
  const messages: WireMessage[] = [
    { role: 'system', content: plan.system },
    { role: 'user', content: plan.prompt },
  ];
  const body = { model: plan.model, tools: plan.tools, options: plan.options };
  const first = await streamChat(plan.ollamaUrl, { ...body, messages }, undefined, send);
  messages.push({ role: 'assistant', content: first.content, tool_calls: first.toolCalls });
  for (const call of first.toolCalls) {
    const [server = '', tool = ''] = call.function.name.split('__');
    const content = await runTool(server, tool, call.function.arguments);
    messages.push({ role: 'tool', content, tool_name: call.function.name });
  }
  const second = await streamChat(plan.ollamaUrl, { ...body, messages }, undefined, send);
  return second.content;
}
