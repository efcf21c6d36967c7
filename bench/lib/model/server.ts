/**
 * The scripted model: an HTTP server on 127.0.0.1 that speaks Ollama's native API and the
 * OpenAI-compatible one (Chat Completions and Responses) and plays script.ts to whichever
 * client calls, so mcp-chat, codex and opencode each meet the same model through the API
 * they use. It records every request (arrival, path, body bytes as sent, what it answered),
 * from which a run's time to its first model request, its bytes and its tool calls are read.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import zlib from 'node:zlib';
import type { ConversationView } from './conversation.js';
import { chatCompletionChunks, chatCompletionWhole, modelsBody, parseChatCompletions } from './openai-wire.js';
import {
  OLLAMA_VERSION,
  ollamaChunks,
  ollamaWhole,
  parseOllamaChat,
  psBody,
  showBody,
  tagsBody,
  type WireObject,
} from './ollama-wire.js';
import { playStream, sendJson, type Framing } from './playback.js';
import { parseResponses, responsesEvents, responsesWhole } from './responses-wire.js';
import { decide, type Decision, type RequestKind, type StoryScript } from './script.js';
import { field } from './conversation.js';

/** The API a request came by; `meta` for listing, showing and version requests. */
export type Api = 'ollama' | 'chat-completions' | 'responses' | 'meta' | 'unknown';

export interface ModelRequest {
  /** `performance.now()` when the request arrived. */
  at: number;
  method: string;
  path: string;
  /** Bytes of the body as sent (compressed, if it was). */
  bytes: number;
  api: Api;
  /** For generation requests: what the model made of it and answered. */
  kind?: RequestKind;
  tag?: number;
  replied?: 'text' | 'calls';
  toolResults?: string[];
}

export interface ScriptedModelOptions {
  model: string;
  /** Pause after each streamed piece of text; default 0. */
  chunkDelayMs?: number;
  story?: StoryScript;
}

/** A generation endpoint: how its requests read and its replies are framed. */
interface Endpoint {
  api: Exclude<Api, 'meta' | 'unknown'>;
  parse: (body: unknown) => ConversationView;
  framing: Framing;
  stream: (decision: Decision, body: unknown, model: string, promptChars: number) => WireObject[];
  whole: (decision: Decision, model: string, promptChars: number) => WireObject;
  textOf: (object: WireObject) => string | undefined;
}

const nonEmpty = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

const ENDPOINTS: Record<string, Endpoint> = {
  '/api/chat': {
    api: 'ollama',
    parse: parseOllamaChat,
    framing: 'ndjson',
    stream: (decision, _body, model, chars) => ollamaChunks(decision.reply, model, chars),
    whole: (decision, model, chars) => ollamaWhole(decision.reply, model, chars),
    textOf: (object) => nonEmpty(field(object.message, 'content')),
  },
  '/v1/chat/completions': {
    api: 'chat-completions',
    parse: parseChatCompletions,
    framing: 'sse-data',
    stream: (decision, body, model, chars) =>
      chatCompletionChunks(decision.reply, {
        model,
        promptChars: chars,
        includeUsage: field(field(body, 'stream_options'), 'include_usage') === true,
      }),
    whole: (decision, model, chars) => chatCompletionWhole(decision.reply, model, chars),
    textOf: (object) => nonEmpty(field(field((object.choices as unknown[] | undefined)?.[0], 'delta'), 'content')),
  },
  '/v1/responses': {
    api: 'responses',
    parse: parseResponses,
    framing: 'sse-events',
    stream: (decision, _body, model, chars) => responsesEvents(decision.reply, model, chars),
    whole: (decision, model, chars) => responsesWhole(decision.reply, model, chars),
    textOf: (object) => (object.type === 'response.output_text.delta' ? nonEmpty(object.delta) : undefined),
  },
};

const DECODERS: Record<string, (input: Buffer) => Buffer> = {
  gzip: zlib.gunzipSync,
  deflate: zlib.inflateSync,
  br: zlib.brotliDecompressSync,
};

function decodeBody(raw: Buffer, encoding: string | undefined): unknown {
  if (raw.length === 0) return undefined;
  const decode = encoding ? DECODERS[encoding] : undefined;
  if (encoding && !decode) throw new Error(`request body in an encoding the scripted model cannot read: ${encoding}`);
  const text = (decode ? decode(raw) : raw).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export class ScriptedModel {
  readonly requests: ModelRequest[] = [];
  private readonly textListeners = new Set<(text: string, at: number) => void>();
  private readonly sockets = new Set<Socket>();
  private readonly server: http.Server;

  private constructor(private readonly options: ScriptedModelOptions) {
    this.server = http.createServer((req, res) => this.receive(req, res));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  static async start(options: ScriptedModelOptions): Promise<ScriptedModel> {
    const model = new ScriptedModel(options);
    await new Promise<void>((resolve) => model.server.listen(0, '127.0.0.1', resolve));
    return model;
  }

  /** `http://127.0.0.1:<port>`, no trailing slash. */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Sees each piece of streamed text as it is written, with the moment it was. */
  onText(listener: (text: string, at: number) => void): () => void {
    this.textListeners.add(listener);
    return () => this.textListeners.delete(listener);
  }

  private receive(req: http.IncomingMessage, res: http.ServerResponse): void {
    const at = performance.now();
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const raw = Buffer.concat(parts);
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const record: ModelRequest = { at, method: req.method ?? 'GET', path, bytes: raw.length, api: 'unknown' };
      this.requests.push(record);
      try {
        this.route(record, decodeBody(raw, req.headers['content-encoding']), res);
      } catch (error) {
        sendJson(res, 400, { error: error instanceof Error ? error.message : String(error) });
      }
    });
  }

  private route(record: ModelRequest, body: unknown, res: http.ServerResponse): void {
    const { model } = this.options;
    const endpoint = record.method === 'POST' ? ENDPOINTS[record.path] : undefined;
    if (endpoint) return void this.generate(endpoint, record, body, res);
    const meta: Record<string, () => unknown> = {
      'GET /api/tags': () => tagsBody(model),
      'GET /api/version': () => ({ version: OLLAMA_VERSION }),
      'GET /api/ps': () => psBody(model),
      'POST /api/show': () => showBody(model),
      'GET /v1/models': () => modelsBody(model),
      [`GET /v1/models/${model}`]: () => (modelsBody(model).data as unknown[])[0],
    };
    const answer = meta[`${record.method} ${record.path}`];
    if (!answer) return sendJson(res, 404, { error: `the scripted model has no ${record.method} ${record.path}` });
    record.api = 'meta';
    sendJson(res, 200, answer());
  }

  private async generate(endpoint: Endpoint, record: ModelRequest, body: unknown, res: http.ServerResponse) {
    record.api = endpoint.api;
    const view = endpoint.parse(body);
    const decision = decide(view, this.options.story ?? { words: () => [] });
    Object.assign(record, {
      kind: decision.kind,
      tag: decision.tag,
      replied: decision.reply.type,
      toolResults: view.toolResults,
    });
    const promptChars = JSON.stringify(body ?? '').length;
    if (field(body, 'stream') === false || (endpoint.api !== 'ollama' && field(body, 'stream') !== true))
      return sendJson(res, 200, endpoint.whole(decision, this.options.model, promptChars));
    await playStream(res, endpoint.stream(decision, body, this.options.model, promptChars), {
      framing: endpoint.framing,
      chunkDelayMs: this.options.chunkDelayMs ?? 0,
      textOf: endpoint.textOf,
      onText: (text, at) => this.textListeners.forEach((listener) => listener(text, at)),
    });
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }
}
