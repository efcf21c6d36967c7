/**
 * The session file: one JSON document per saved conversation, versioned by `format`. It holds
 * the model, the messages the model is sent again on resume (tool calls and results included)
 * and the items the screen showed. Read with zod: a damaged file or one from a newer mcp-chat is
 * an error naming the file, never a crash and never silently rewritten.
 */
import * as z from 'zod';
import type { ChatMessage, ToolCall, ToolResult } from '../vocabulary/types.js';
import { McpChatError, ExitCode } from '../shared/errors.js';
import { isRecord } from '../shared/is-record.js';

/** Bumped when a change would make an older mcp-chat misread the file; older formats stay readable. */
export const SESSION_FORMAT = 1;

/** What the screen showed, as the REPL's history items (without their ids); images stay out of the file. */
export type SavedItem =
  | { type: 'user'; text: string }
  | { type: 'assistant'; text: string }
  | { type: 'tool'; call: ToolCall; result: ToolResult }
  | { type: 'info'; text: string }
  | { type: 'error'; text: string; hint?: string }
  | { type: 'debug'; text: string };

export interface SavedSession {
  format: typeof SESSION_FORMAT;
  name: string;
  model: string;
  /** ISO 8601. */
  createdAt: string;
  updatedAt: string;
  /** Turns the model answered, over the session's whole life. */
  turns: number;
  /** The first line of the first message, for lists. */
  title: string;
  messages: ChatMessage[];
  screen: SavedItem[];
}

/** A session file that cannot be used: damaged, or written by a newer mcp-chat. Exit 1 in scripts. */
export class SessionFileError extends McpChatError {
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(`session file ${file} ${problem}`, ExitCode.runtime, 'Move it aside or delete it (/delete <name>).');
  }
}

const image = z.object({ data: z.string(), mimeType: z.string(), label: z.string() });
/** Any JSON object. Not `z.record`: it checks each key, which made reading a long session five times slower. */
const args = z.looseObject({});

const message = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({
    role: z.literal('user'),
    content: z.string(),
    toolResult: z.literal(true).optional(),
    images: z.array(image).optional(),
  }),
  z.object({
    role: z.literal('assistant'),
    content: z.string(),
    toolCalls: z
      .array(z.object({ name: z.string(), arguments: args.optional(), id: z.string().optional() }))
      .optional(),
  }),
  z.object({ role: z.literal('tool'), content: z.string(), toolName: z.string(), images: z.array(image).optional() }),
]);

const text = z.string();
const item = z.discriminatedUnion('type', [
  z.object({ type: z.literal('user'), text }),
  z.object({ type: z.literal('assistant'), text }),
  z.object({
    type: z.literal('tool'),
    call: z.object({ server: z.string(), tool: z.string(), arguments: args }),
    result: z.object({ isError: z.boolean(), forModel: z.string(), durationMs: z.number() }),
  }),
  z.object({ type: z.literal('info'), text }),
  z.object({ type: z.literal('error'), text, hint: z.string().optional() }),
  z.object({ type: z.literal('debug'), text }),
]);

const sessionSchema = z.object({
  format: z.literal(SESSION_FORMAT),
  name: z.string(),
  model: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  turns: z.number().int().nonnegative(),
  title: z.string(),
  messages: z.array(message),
  screen: z.array(item),
});

/** A native call's arguments are `undefined` when the model sent no object; JSON leaves such a key out. */
function toChatMessage(parsed: z.infer<typeof message>): ChatMessage {
  if (parsed.role !== 'assistant') return parsed;
  const { toolCalls, ...rest } = parsed;
  return toolCalls ? { ...rest, toolCalls: toolCalls.map((call) => ({ ...call, arguments: call.arguments })) } : rest;
}

/** The session in `text`, read from `file` (named in every error). */
export function parseSession(text: string, file: string): SavedSession {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SessionFileError(file, `is damaged (not JSON: ${error instanceof Error ? error.message : error})`);
  }
  // The format is looked at first: a newer file is not "damaged", and must not be read as if it were ours.
  const format = isRecord(json) ? json.format : undefined;
  if (typeof format === 'number' && format > SESSION_FORMAT)
    throw new SessionFileError(
      file,
      `was written by a newer mcp-chat (format ${format}; this one reads format ${SESSION_FORMAT}): update mcp-chat to open it`,
    );
  const parsed = sessionSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    throw new SessionFileError(file, `is damaged (${issue?.message ?? 'invalid'}${where})`);
  }
  return { ...parsed.data, messages: parsed.data.messages.map(toChatMessage) };
}

/** Compact JSON: the file is rewritten after every turn, and nobody reads it by eye but through /export. */
export function serializeSession(session: SavedSession): string {
  return `${JSON.stringify(session)}\n`;
}
