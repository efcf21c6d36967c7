/**
 * The messages `/ws` speaks, both ways, as JSON objects `{ type, payload }`. What a client sends is
 * read here once, with zod and a size limit: a message too large or not one of ours is an `error`
 * back, and the connection stays open.
 */
import * as z from 'zod';
import type { ApprovalDecision, TurnErrorKind } from '../vocabulary/types.js';
import type { SavedItem } from '../state/session-file.js';

/** Bytes a client message may have: a long pasted prompt fits, a flood does not. */
export const MAX_MESSAGE_BYTES = 64 * 1024;

const clientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('message'), payload: z.object({ text: z.string().trim().min(1) }) }),
  z.object({
    type: z.literal('answer'),
    payload: z.object({ id: z.string().min(1), decision: z.enum(['allow', 'always', 'deny']) }),
  }),
  z.object({ type: z.literal('cancel') }),
]);

export type ClientMessage = z.infer<typeof clientMessage>;
export type WireDecision = Extract<ClientMessage, { type: 'answer' }>['payload']['decision'];

/** Why the server refused something: the `kind` of an `error` message. */
export type WireErrorKind =
  | 'too-large'
  | 'malformed'
  | 'rate-limited'
  | 'busy'
  | 'unknown-question'
  | 'unknown-session'
  | 'too-many-sessions'
  | 'step-limit'
  | 'save-failed'
  | 'missing-arguments'
  | 'warning'
  | TurnErrorKind;

export interface StatusPayload {
  state: 'processing' | 'complete';
  /** `server.tool` when the status is a tool call's; absent: the turn's own (started, over). */
  tool?: string;
  message: string;
  data?: Record<string, unknown>;
}

export type ServerMessage =
  | { type: 'connection'; payload: { state: 'connected'; message: string; sessionId: string } }
  /** What the session showed so far, right after `connection`; `running`: a turn is under way. */
  | { type: 'history'; payload: { items: SavedItem[]; running: boolean } }
  /** A message a connection of the session sent, to every connection of it. */
  | { type: 'message'; payload: { text: string } }
  | { type: 'text'; payload: { content: string } }
  | { type: 'status'; payload: StatusPayload }
  | {
      type: 'approval';
      payload: { id: string; callId: string; server: string; tool: string; arguments: Record<string, unknown> };
    }
  /** A server's own question (sampling, a form, a URL, changed tools), answered by id like an approval. */
  | { type: 'question'; payload: { id: string; kind: string; server: string; message: string } }
  /** A question was answered (by any connection) or withdrawn: the others stop asking it. */
  | { type: 'answered'; payload: { id: string; decision: WireDecision | 'withdrawn' } }
  | { type: 'error'; payload: { kind: WireErrorKind; message: string } };

export type ReadResult = { ok: true; message: ClientMessage } | { ok: false; kind: WireErrorKind; message: string };

/** Reads one frame from a client: too large, not JSON, or not a message of ours are refusals, not throws. */
export function readClientMessage(data: Buffer): ReadResult {
  if (data.byteLength > MAX_MESSAGE_BYTES)
    return { ok: false, kind: 'too-large', message: `a message may have at most ${MAX_MESSAGE_BYTES} bytes` };
  let json: unknown;
  try {
    json = JSON.parse(data.toString('utf8'));
  } catch {
    return { ok: false, kind: 'malformed', message: 'a message must be a JSON object { "type", "payload" }' };
  }
  const parsed = clientMessage.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    return {
      ok: false,
      kind: 'malformed',
      message: `not a message this server reads${where}: ${issue?.message ?? ''}`,
    };
  }
  return { ok: true, message: parsed.data };
}

/** The wire's words for the session's decisions. */
export function toDecision(decision: WireDecision): ApprovalDecision {
  return decision === 'allow' ? 'once' : decision;
}
