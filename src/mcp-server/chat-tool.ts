/**
 * The `chat` tool: `{ prompt, session? }` runs one turn on the local model with the configured
 * servers and answers with the text, and `{ answer, toolCalls, stats }` (`ask --json`'s fields) as
 * structured content. The caller's cancel stops the turn; its progress token hears how it goes.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { ChatSession, type SessionHost, type SessionLlm } from '../session/chat-session.js';
import type { Runtime } from '../session/runtime.js';
import { callerApproval } from './caller-approval.js';
import { runChatTurn } from './chat-turn.js';
import { progressTo, type ToolExtra } from './progress.js';
import type { HeldChat, SavedChats } from './saved-chats.js';

export interface ChatToolDeps {
  runtime: Runtime;
  host: SessionHost;
  /** A model client for `model`. */
  llmFor: (model: string) => SessionLlm;
  maxSteps: number;
  /** `--model` was given: it wins over a saved session's model, as with `ask --session`. */
  modelGiven: boolean;
  chats: SavedChats;
}

const INPUT = {
  prompt: z.string().min(1).describe('the message to the local model'),
  session: z
    .string()
    .optional()
    .describe('a saved conversation to carry on (or start), saved again with this exchange'),
};

const TOOL_CALL = z.object({
  id: z.string(),
  server: z.string(),
  tool: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  isError: z.boolean(),
  result: z.string(),
  durationMs: z.number(),
});

const STATS = z.object({
  turns: z.number(),
  requests: z.number(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  tokensPerSecond: z.number().nullable(),
  modelMs: z.number(),
  loadMs: z.number(),
  toolMs: z.number(),
  toolCalls: z.number(),
  toolCallsByServer: z.record(z.string(), z.number()),
  context: z.object({ used: z.number(), size: z.number() }).nullable(),
});

const OUTPUT = { answer: z.string(), toolCalls: z.array(TOOL_CALL), stats: STATS };

const DESCRIPTION =
  'Ask the local model one question. It may use the tools of its configured MCP servers; calls that ' +
  'need approval are asked of you. Give `session` to carry on a saved conversation.';

async function chat(
  deps: ChatToolDeps,
  server: McpServer,
  prompt: string,
  held: HeldChat | undefined,
  extra: ToolExtra,
): Promise<CallToolResult> {
  const { runtime } = deps;
  const model = held?.saved && !deps.modelGiven ? held.saved.model : runtime.config.ollama.model;
  const session = new ChatSession(runtime, deps.host, deps.llmFor(model), {
    maxSteps: deps.maxSteps,
    ...(held ? { keeper: held.keeper } : {}),
  });
  if (held?.saved) session.restoreConversation(held.saved);
  const caller = {
    signal: extra.signal,
    progress: progressTo(extra),
    approve: callerApproval(server.server, extra.signal),
  };
  const { end, transcript } = await runChatTurn(session, prompt, caller);
  if (held) await session.saveTurn(transcript.items, transcript.answered);
  const structuredContent = { answer: end.answer, toolCalls: end.toolCalls, stats: session.stats.snapshot() };
  if (end.error !== undefined)
    return { isError: true, content: [{ type: 'text', text: end.error }], structuredContent };
  return { content: [{ type: 'text', text: end.answer }], structuredContent };
}

export function registerChatTool(server: McpServer, deps: ChatToolDeps): void {
  server.registerTool(
    'chat',
    { title: 'Chat with the local model', description: DESCRIPTION, inputSchema: INPUT, outputSchema: OUTPUT },
    async ({ prompt, session }, extra) => {
      const held = session === undefined ? undefined : deps.chats.hold(session);
      try {
        return await chat(deps, server, prompt, held, extra);
      } finally {
        held?.release();
      }
    },
  );
}
