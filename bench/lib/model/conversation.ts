/**
 * What the scripted model reads from a request, whatever API it came by: the user's words,
 * the tools offered (with a namespace where the API has them), and the tool results sent
 * back since the user last spoke. Each wire module parses its requests into this.
 */

export interface OfferedTool {
  name: string;
  /** The Responses API groups an MCP server's tools under a namespace (`mcp__calculator`). */
  namespace?: string;
}

export interface ConversationView {
  /** Every user message's text, in order. */
  userTexts: string[];
  tools: OfferedTool[];
  /** Text of each tool result after the last user message. */
  toolResults: string[];
}

/** One tool call the model makes. */
export interface ScriptedCall {
  id: string;
  tool: OfferedTool;
  arguments: Record<string, string>;
}

/** The model's reply: streamed text, or tool calls (all in one reply). */
export type ScriptedReply = { type: 'text'; chunks: string[] } | { type: 'calls'; calls: ScriptedCall[] };

/** Text of a message part list (`[{type:'text', text}]`, `[{type:'input_text', text}]`) or a plain string. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) =>
      typeof part === 'object' && part !== null && 'text' in part && typeof part.text === 'string' ? part.text : '',
    )
    .join('\n');
}

/** A JSON object's field, if the value is an object. */
export function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

export function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
