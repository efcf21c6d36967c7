/**
 * Ollama's HTTP API spoken by hand with the global `fetch`, for the baselines: JSON
 * requests, and `/api/chat` read as an NDJSON stream, each delta handed on as it arrives.
 * Another transport can stand in for `fetch` (http-fetch.ts: over `node:http`, as mcp-chat's client).
 */

export interface WireToolCall {
  function: { name: string; arguments: Record<string, unknown> };
}

export interface WireMessage {
  role: string;
  content: string;
  tool_calls?: WireToolCall[];
  tool_name?: string;
}

export interface ChatReply {
  content: string;
  toolCalls: WireToolCall[];
}

interface ChatLine {
  message?: { content?: string; tool_calls?: WireToolCall[] };
  error?: string;
}

/** What the by-hand requests use of `fetch`. */
export interface ByHandResponse {
  ok: boolean;
  status: number;
  body: AsyncIterable<Uint8Array> | null;
  json(): Promise<unknown>;
}

export interface ByHandRequest {
  method?: string;
  body?: string;
  headers?: Record<string, string>;
}

export type ByHandFetch = (url: string, init: ByHandRequest) => Promise<ByHandResponse>;

export async function requestJson(url: string, body?: unknown, send: ByHandFetch = fetch): Promise<unknown> {
  const init: ByHandRequest =
    body === undefined
      ? {}
      : { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } };
  const response = await send(url, init);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

/** POSTs a streaming chat request and reads it to the end; `onContent` sees each delta as it is parsed. */
export async function streamChat(
  baseUrl: string,
  body: Record<string, unknown>,
  onContent?: (text: string) => void,
  send: ByHandFetch = fetch,
): Promise<ChatReply> {
  const response = await send(`${baseUrl}/api/chat`, {
    method: 'POST',
    body: JSON.stringify({ ...body, stream: true }),
    headers: { 'Content-Type': 'application/json' },
  });
  if (!response.ok || !response.body) throw new Error(`/api/chat: HTTP ${response.status}`);
  const reply: ChatReply = { content: '', toolCalls: [] };
  const decoder = new TextDecoder();
  let pending = '';
  for await (const bytes of response.body) {
    pending += decoder.decode(bytes, { stream: true });
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') readLine(JSON.parse(line) as ChatLine, reply, onContent);
  }
  return reply;
}

function readLine(line: ChatLine, reply: ChatReply, onContent?: (text: string) => void): void {
  if (line.error) throw new Error(`/api/chat: ${line.error}`);
  const content = line.message?.content ?? '';
  if (content) {
    reply.content += content;
    onContent?.(content);
  }
  reply.toolCalls.push(...(line.message?.tool_calls ?? []));
}
