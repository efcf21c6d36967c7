/**
 * A fake Ollama server on 127.0.0.1 that speaks the real wire protocol (NDJSON `/api/chat`,
 * `/api/tags`, `/api/show`, `/api/ps`, `/api/version`, `/api/embed`, `{"error"}` bodies) and plays scripted replies,
 * for client tests and for end-to-end tests of the `mcp-chat` binary. It records every request.
 * `/api/pull` downloads the models `offerPull` (or `pullable`) put in its "library"; a pulled model is
 * then listed like the others (fake-ollama-pull.ts).
 *
 *   const ollama = await startFakeOllama({ models: [{ name: 'llama3.2' }] });
 *   ollama.script('Hello!', { toolCalls: [{ name: 'calculator__evaluate', arguments: { expression: '2+2' } }] });
 *   // … point the client (or `mcp-chat --host ${ollama.url}`) at it …
 *   expect(ollama.chatRequests[0]?.options?.num_ctx).toBe(8192);
 *   await ollama.close();
 *
 * Before a reply is taken from the script, the fake does what Ollama does: an unknown model
 * gets 404, `tools` for a model without the `tools` capability gets 400, `think` for one
 * without `thinking` gets 400, images for one without `vision` get 500, a prompt over `num_ctx`
 * with `truncate: false` gets 400 (with `refuseOverContext`), and empty `messages` only "loads" the model. Those requests do not use up a scripted reply. Delays are timers
 * inside the fake: tests never sleep.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { Exchange, playStream, playWhole } from './fake-ollama-playback.js';
import { type FakePullSpec, playPull } from './fake-ollama-pull.js';
import {
  asSpec,
  capabilitiesOf,
  type FakeChatRequest,
  type FakeModel,
  type FakeReply,
  type FakeReplySpec,
  loadReply,
  maximumContext,
  normalizeName,
  psEntry,
  registryPath,
  showBody,
  tagsEntry,
} from './fake-ollama-wire.js';

export type {
  FakeChatRequest,
  FakeModel,
  FakeReply,
  FakeReplySpec,
  FakeToolCall,
  FakeWireMessage,
} from './fake-ollama-wire.js';
export { replies } from './fake-ollama-wire.js';
export type { FakePullSpec } from './fake-ollama-pull.js';

/** A model without native tool calling, as the REPL's tests use: its calls are text JSON. */
export const TEXT_MODEL: FakeModel[] = [{ name: 'llama3.2', capabilities: ['completion'] }];

export interface RecordedRequest {
  method: string;
  /** Without the query string. */
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body; the raw text when it is not JSON; `undefined` when empty. */
  body: unknown;
  /** The client went away before the fake had finished answering (a cancel, a timeout). */
  clientAborted: boolean;
}

export interface FakeOllamaOptions {
  /** Default: one model, `llama3.2` (capabilities `completion`, `tools`). */
  models?: FakeModel[];
  /** What `/api/version` reports. Default `0.12.6`. */
  version?: string;
  /** The initial script; `script()` adds more. */
  replies?: FakeReply[];
  /** Played when the script is empty. Default: HTTP 500 naming the problem, so a test fails loudly. */
  fallbackReply?: FakeReply;
  /** Listen on this port (e.g. to come back where a closed fake was); default: any free port. */
  port?: number;
  /** Models `/api/pull` can download, by name; `offerPull` adds more. Any other name is not in the library. */
  pullable?: Record<string, FakePullSpec>;
  /** Serve HTTPS with this certificate and key (PEM text), at an `https://` URL. */
  tls?: { cert: string; key: string };
  /**
   * Refuse, as Ollama does for `truncate: false`, a chat whose prompt (its JSON's characters / 4)
   * is longer than the context the model was loaded with (its `num_ctx`, else `defaultContext`): HTTP 400 with
   * the message llama.cpp's server writes (`CONTEXT_REFUSAL`). Not a scripted reply used up.
   */
  refuseOverContext?: boolean;
  /**
   * The context a model is loaded with when a request names no `num_ctx`: Ollama's default,
   * 4096 (or `OLLAMA_CONTEXT_LENGTH`); capped, as Ollama caps it, by the model's own maximum.
   */
  defaultContext?: number;
  /**
   * `/api/ps` as a server of another age answers it: `full` (default) lists each loaded model with
   * its `context_length`; `no-context-length` leaves that field out; `absent` is a 404.
   */
  ps?: 'full' | 'no-context-length' | 'absent';
}

/** What Ollama answers (HTTP 400) to a prompt over the context with `truncate: false` (ollama/ollama#16800). */
export function contextRefusal(promptTokens: number, numCtx: number): string {
  const inner = {
    error: {
      code: 400,
      message: `request (${promptTokens} tokens) exceeds the available context size (${numCtx} tokens), try increasing it`,
      type: 'exceed_context_size_error',
      n_prompt_tokens: promptTokens,
      n_ctx: numCtx,
    },
  };
  return JSON.stringify(inner);
}

export interface FakeOllama {
  /** `http://127.0.0.1:<port>` (`https://` with `tls`), no trailing slash. */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Bodies of the `/api/chat` requests, in order. */
  readonly chatRequests: FakeChatRequest[];
  /** Scripted replies not yet played. */
  readonly pendingReplies: number;
  /** Queues replies for the next `/api/chat` requests, in order. */
  script(...replies: FakeReply[]): void;
  setModels(models: FakeModel[]): void;
  /** Puts `name` in the library `/api/pull` downloads from (again, with a new `spec`). */
  offerPull(name: string, spec?: FakePullSpec): void;
  /** Resolves once `count` requests to `path` (default `/api/chat`) have arrived. */
  waitForRequests(count: number, path?: string): Promise<RecordedRequest[]>;
  /** Stops listening and destroys open connections (a hanging stream included). */
  close(): Promise<void>;
}

const NO_REPLY_LEFT: FakeReplySpec = {
  status: 500,
  error: 'fake-ollama: no scripted reply left for this /api/chat request',
};

/** What Ollama's runner answers (HTTP 500) to images for a model without a vision projector. */
const NO_VISION =
  'Failed to create new sequence: failed to process inputs: this model is missing data required for image input';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

class FakeOllamaServer implements FakeOllama {
  readonly requests: RecordedRequest[] = [];
  url = '';
  private readonly queue: FakeReply[];
  private models: FakeModel[];
  private readonly sockets = new Set<Socket>();
  private readonly pullable = new Map<string, FakePullSpec>();
  /** Models a chat has loaded, with the context each was given, as `/api/ps` lists them. */
  private readonly loaded = new Map<string, { model: FakeModel; context: number }>();
  private waiters: Array<() => boolean> = [];
  private readonly server: http.Server;

  constructor(private readonly options: FakeOllamaOptions) {
    this.queue = [...(options.replies ?? [])];
    this.models = options.models ?? [{ name: 'llama3.2' }];
    const handler = (req: http.IncomingMessage, res: http.ServerResponse): void => void this.handle(req, res);
    this.server = options.tls ? https.createServer(options.tls, handler) : http.createServer(handler);
    for (const [name, spec] of Object.entries(options.pullable ?? {})) this.offerPull(name, spec);
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(this.options.port ?? 0, '127.0.0.1', resolve));
    const scheme = this.options.tls ? 'https' : 'http';
    this.url = `${scheme}://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  get chatRequests(): FakeChatRequest[] {
    return this.requests
      .filter((r) => r.path === '/api/chat' && isRecord(r.body))
      .map((r) => r.body as FakeChatRequest);
  }

  get pendingReplies(): number {
    return this.queue.length;
  }

  script(...replies: FakeReply[]): void {
    this.queue.push(...replies);
  }

  setModels(models: FakeModel[]): void {
    this.models = models;
  }

  offerPull(name: string, spec: FakePullSpec = {}): void {
    this.pullable.set(normalizeName(name), spec);
  }

  waitForRequests(count: number, path = '/api/chat'): Promise<RecordedRequest[]> {
    return new Promise((resolve) => {
      const check = (): boolean => {
        const matching = this.requests.filter((r) => r.path === path);
        if (matching.length >= count) resolve(matching);
        return matching.length >= count;
      };
      if (!check()) this.waiters.push(check);
    });
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path: new URL(req.url ?? '/', 'http://fake').pathname,
      headers: req.headers,
      body: parseBody(raw),
      clientAborted: false,
    };
    this.requests.push(record);
    this.waiters = this.waiters.filter((check) => !check());
    const exchange = new Exchange(res, record);
    const route = `${record.method} ${record.path}`;
    if (route === 'GET /' || route === 'HEAD /') exchange.text(200, 'Ollama is running');
    else if (route === 'GET /api/version') exchange.json(200, { version: this.options.version ?? '0.12.6' });
    else if (route === 'GET /api/tags') exchange.json(200, { models: this.models.map(tagsEntry) });
    else if (route === 'POST /api/show') this.show(exchange, record.body);
    else if (route === 'GET /api/ps' && this.options.ps !== 'absent') this.ps(exchange);
    else if (route === 'POST /api/chat') await this.chat(exchange, raw, record.body);
    else if (route === 'POST /api/embed') this.embed(exchange, record.body);
    else if (route === 'POST /api/pull') await this.pull(exchange, record.body);
    // Ollama's router (gin) answers unknown routes and methods with this plain text.
    else exchange.text(404, '404 page not found');
  }

  private findModel(name: string): FakeModel | undefined {
    return this.models.find((model) => normalizeName(model.name) === normalizeName(name));
  }

  private show(exchange: Exchange, body: unknown): void {
    const name = isRecord(body) ? (body.model ?? body.name) : undefined;
    if (typeof name !== 'string' || name === '') return exchange.json(400, { error: 'model is required' });
    const model = this.findModel(name);
    if (!model) return exchange.json(404, { error: `model '${name}' not found` });
    exchange.json(200, showBody(model));
  }

  private ps(exchange: Exchange): void {
    const withContext = this.options.ps !== 'no-context-length';
    const models = [...this.loaded.values()].map(({ model, context }) =>
      psEntry(model, withContext ? context : undefined),
    );
    exchange.json(200, { models });
  }

  /** Loads `model` as Ollama does for a request: with its `num_ctx`, else the default, at most the model's own. */
  private load(model: FakeModel, request: FakeChatRequest): number {
    const asked = typeof request.options?.num_ctx === 'number' ? request.options.num_ctx : undefined;
    const context = Math.min(asked ?? this.options.defaultContext ?? 4096, maximumContext(model));
    this.loaded.set(normalizeName(model.name), { model, context });
    return context;
  }

  /** `/api/pull`: the `ollama` package sends the name as `name`, newer clients as `model`; Ollama takes both. */
  private async pull(exchange: Exchange, body: unknown): Promise<void> {
    const name = isRecord(body) ? (body.model ?? body.name) : undefined;
    if (typeof name !== 'string' || name === '') return exchange.json(400, { error: 'invalid model name' });
    const spec = this.pullable.get(normalizeName(name));
    const pulled = await playPull(exchange, normalizeName(name), spec, isRecord(body) && body.stream !== false);
    if (pulled && !this.findModel(name)) this.models = [...this.models, { ...spec?.model, name }];
  }

  /** `/api/embed`: one vector per input, from an embedding model only (Ollama refuses a chat model). */
  private embed(exchange: Exchange, body: unknown): void {
    const name = isRecord(body) ? body.model : undefined;
    if (typeof name !== 'string' || name === '') return exchange.json(400, { error: 'model is required' });
    const model = this.findModel(name);
    if (!model) return exchange.json(404, { error: `model "${name}" not found, try pulling it first` });
    if (!capabilitiesOf(model)?.includes('embedding'))
      return exchange.json(400, { error: `"${name}" does not support embeddings` });
    const input = isRecord(body) ? body.input : undefined;
    const texts = typeof input === 'string' ? [input] : Array.isArray(input) ? input.map(String) : [];
    exchange.json(200, {
      model: normalizeName(name),
      embeddings: texts.map(wordVector),
      total_duration: 14_000_000,
      load_duration: 1_000_000,
      prompt_eval_count: texts.reduce((sum, text) => sum + text.split(/\s+/).length, 0),
    });
  }

  /** Ollama's own checks; an answer here means the model never ran. */
  private refusal(body: FakeChatRequest): [number, string] | undefined {
    const model = this.findModel(body.model);
    if (!model) return [404, `model '${body.model}' not found`];
    const capabilities = capabilitiesOf(model);
    if (capabilities === null) return undefined;
    const wantsTools = Array.isArray(body.tools) && body.tools.length > 0;
    if (wantsTools && !capabilities.includes('tools'))
      return [400, `${registryPath(body.model)} does not support tools`];
    const wantsThinking = body.think !== undefined && body.think !== false;
    if (wantsThinking && !capabilities.includes('thinking')) return [400, `"${body.model}" does not support thinking`];
    const hasImages =
      Array.isArray(body.messages) && body.messages.some((message) => (message.images?.length ?? 0) > 0);
    if (hasImages && !capabilities.includes('vision')) return [500, NO_VISION];
    return undefined;
  }

  private async chat(exchange: Exchange, raw: string, body: unknown): Promise<void> {
    if (raw.trim() === '') return exchange.json(400, { error: 'missing request body' });
    if (!isRecord(body)) return exchange.json(400, { error: 'invalid character in request body' });
    if (typeof body.model !== 'string' || body.model === '') return exchange.json(400, { error: 'model is required' });
    const request = body as FakeChatRequest;
    const refusal = this.refusal(request);
    if (refusal) return exchange.json(refusal[0], { error: refusal[1] });
    const numCtx = this.load(this.findModel(request.model) as FakeModel, request);
    if (!Array.isArray(request.messages) || request.messages.length === 0)
      return exchange.json(200, loadReply(request.model));
    const promptChars = JSON.stringify(request.messages).length + JSON.stringify(request.tools ?? []).length;
    const promptTokens = Math.ceil(promptChars / 4);
    if (this.options.refuseOverContext && request.truncate === false && promptTokens > numCtx)
      return exchange.json(400, { error: contextRefusal(promptTokens, numCtx) });
    const next = this.queue.shift() ?? this.options.fallbackReply ?? NO_REPLY_LEFT;
    const spec = asSpec(typeof next === 'function' ? next(request) : next);
    if (spec.status !== undefined || spec.error !== undefined) {
      return exchange.json(spec.status ?? 500, { error: spec.error ?? 'fake-ollama: scripted failure' });
    }
    if (request.stream === false) await playWhole(exchange, spec, request.model, promptChars);
    else await playStream(exchange, spec, request.model, promptChars);
  }
}

/** A stand-in embedding: words hashed into 64 buckets, so texts sharing words are similar. */
function wordVector(text: string): number[] {
  const vector = new Array<number>(64).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const bucket = createHash('sha256').update(word).digest()[0] as number;
    vector[bucket % 64] = (vector[bucket % 64] as number) + 1;
  }
  return vector;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', () => resolve(Buffer.concat(parts).toString('utf8')));
  });
}

function parseBody(raw: string): unknown {
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** Starts a fake Ollama on 127.0.0.1 and an ephemeral port. */
export async function startFakeOllama(options: FakeOllamaOptions = {}): Promise<FakeOllama> {
  const server = new FakeOllamaServer(options);
  await server.listen();
  return server;
}
