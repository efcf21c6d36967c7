/**
 * The `chat` tool: `{ prompt, session? }` runs one turn on the local model with the configured
 * servers and answers with the text, and `{ answer, toolCalls, stats }` (`ask --json`'s fields) as
 * structured content. The caller's cancel stops the turn; its progress token hears how it goes.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ChatSession, type SessionHost, type SessionLlm } from '../session/chat-session.js';
import type { Runtime } from '../session/runtime.js';
import { callerApproval } from './caller-approval.js';
import { runChatTurn } from './chat-turn.js';
import { progressTo, type ToolExtra } from './progress.js';
import type { HeldChat, SavedChats } from './saved-chats.js';
import { failed, type ToolEntry } from './tool-table.js';

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

const INPUT: Tool['inputSchema'] = {
  type: 'object',
  properties: {
    prompt: { type: 'string', minLength: 1, description: 'the message to the local model' },
    session: {
      type: 'string',
      description: 'a saved conversation to carry on (or start), saved again with this exchange',
    },
  },
  required: ['prompt'],
};

const NUMBER = { type: 'number' } as const;
const STRING = { type: 'string' } as const;

const TOOL_CALL = {
  type: 'object',
  properties: {
    id: STRING,
    server: STRING,
    tool: STRING,
    arguments: { type: 'object', additionalProperties: {} },
    isError: { type: 'boolean' },
    result: STRING,
    durationMs: NUMBER,
  },
  required: ['id', 'server', 'tool', 'arguments', 'isError', 'result', 'durationMs'],
} as const;

const STATS = {
  type: 'object',
  properties: {
    turns: NUMBER,
    requests: NUMBER,
    inputTokens: NUMBER,
    outputTokens: NUMBER,
    tokensPerSecond: { type: ['number', 'null'] },
    modelMs: NUMBER,
    loadMs: NUMBER,
    toolMs: NUMBER,
    toolCalls: NUMBER,
    toolCallsByServer: { type: 'object', additionalProperties: NUMBER },
    context: {
      anyOf: [
        { type: 'object', properties: { used: NUMBER, size: NUMBER }, required: ['used', 'size'] },
        { type: 'null' },
      ],
    },
  },
  required: [
    'turns',
    'requests',
    'inputTokens',
    'outputTokens',
    'tokensPerSecond',
    'modelMs',
    'loadMs',
    'toolMs',
    'toolCalls',
    'toolCallsByServer',
    'context',
  ],
} as const;

const OUTPUT: NonNullable<Tool['outputSchema']> = {
  type: 'object',
  properties: { answer: STRING, toolCalls: { type: 'array', items: TOOL_CALL }, stats: STATS },
  required: ['answer', 'toolCalls', 'stats'],
};

const DESCRIPTION =
  'Ask the local model one question. It may use the tools of its configured MCP servers; calls that ' +
  'need approval are asked of you. Give `session` to carry on a saved conversation.';

async function chat(
  deps: ChatToolDeps,
  server: Server,
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
    approve: callerApproval(server, extra.signal),
  };
  const { end, transcript } = await runChatTurn(session, prompt, caller);
  if (held) await session.saveTurn(transcript.items, transcript.answered);
  const structuredContent = { answer: end.answer, toolCalls: end.toolCalls, stats: session.stats.snapshot() };
  if (end.error !== undefined)
    return { isError: true, content: [{ type: 'text', text: end.error }], structuredContent };
  return { content: [{ type: 'text', text: end.answer }], structuredContent };
}

/** What the tool takes, read as its schema says; a line saying what is wrong otherwise. */
function readInput(args: Record<string, unknown>): { prompt: string; session?: string } | string {
  const { prompt, session } = args;
  if (typeof prompt !== 'string' || prompt === '') return '`prompt` is required: the message to the local model';
  if (session !== undefined && typeof session !== 'string') return "`session` is a saved conversation's name";
  return session === undefined ? { prompt } : { prompt, session };
}

export function chatTool(deps: ChatToolDeps): ToolEntry {
  return {
    tool: {
      name: 'chat',
      title: 'Chat with the local model',
      description: DESCRIPTION,
      inputSchema: INPUT,
      outputSchema: OUTPUT,
    },
    async run(args, extra, server) {
      const input = readInput(args);
      if (typeof input === 'string') return failed(input);
      const held = input.session === undefined ? undefined : deps.chats.hold(input.session);
      try {
        return await chat(deps, server, input.prompt, held, extra);
      } finally {
        held?.release();
      }
    },
  };
}
