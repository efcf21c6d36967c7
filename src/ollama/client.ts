/**
 * The `LlmClient` for a local Ollama server, over the official `ollama` package: streaming
 * chat with cancel and an idle timeout, retry of connection failures before a reply
 * starts, model and capability checks. Never prints; request bodies are logged at debug only.
 */
import { Ollama, type ShowResponse } from 'ollama';
import type { ModelContext } from '../vocabulary/model-context.js';
import type { PullProgress } from '../vocabulary/model-pull.js';
import type { LlmCapabilities, LlmChunk, LlmClient, LlmRequest } from '../vocabulary/types.js';
import type { OllamaSettings } from '../config/types.js';
import { OllamaError } from '../shared/errors.js';
import type { Logger } from '../shared/log.js';
import {
  abortError,
  failedMidReply,
  idleTimeout,
  isResponseError,
  lostConnectionDetail,
  modelMissing,
  START_HINT,
  type Target,
  toOllamaError,
  withRetry,
} from './failures.js';
import { readLoadedContext, readMaximumContext } from './model-context.js';
import { pullModel } from './pull.js';
import { RequestGuard } from './request-guard.js';
import {
  asPackageRequest,
  buildChatBody,
  carriesImages,
  loggableBody,
  readCapabilities,
  sameModel,
  toLlmChunks,
} from './wire.js';

export interface OllamaClient extends LlmClient {
  /** The server's base URL, as requests use it. */
  readonly baseUrl: string;
  /** Throws `OllamaError('unreachable')` naming the URL when no Ollama answers there. */
  checkAvailable(): Promise<void>;
  /** Throws `OllamaError('model-missing')` with the `ollama pull` hint, for `model` or else the current one. */
  checkModel(model?: string): Promise<void>;
  /** Names of the models the server has, as `/api/tags` lists them (`llama3.2:latest`). */
  listModels(): Promise<string[]>;
  /** Later requests use `name`; capabilities are looked up (and cached) per model. */
  setModel(name: string): void;
  /**
   * What Ollama says of the context of `model` (the current one when not given): as loaded
   * (`/api/ps`) and at most (`/api/show`). Never throws: what could not be learned is left out.
   */
  modelContext(model?: string): Promise<ModelContext>;
  /** Vectors of `texts` from an embedding model (`/api/embed`), in order. */
  embed(model: string, texts: string[]): Promise<number[][]>;
  /** Downloads `model` (`/api/pull`), yielding its progress; `signal` cancels it. See pull.ts. */
  pull(model: string, signal?: AbortSignal): AsyncGenerator<PullProgress>;
}

export function createOllamaClient(settings: OllamaSettings, log: Logger): OllamaClient {
  return new HttpOllamaClient(settings, log.child({ component: 'ollama' }));
}

class HttpOllamaClient implements OllamaClient {
  readonly baseUrl: string;
  private currentModel: string;
  /** `/api/show` per model: its capabilities and its longest context. */
  private readonly showCache = new Map<string, Promise<ShowResponse>>();
  /** Models that refused a request with `tools` (400 "does not support tools"). */
  private readonly toolsRefused = new Set<string>();

  constructor(
    private readonly settings: OllamaSettings,
    private readonly log: Logger,
  ) {
    this.currentModel = settings.model;
    this.baseUrl = settings.baseUrl;
  }

  get model(): string {
    return this.currentModel;
  }

  setModel(name: string): void {
    this.currentModel = name;
  }

  private get target(): Target {
    return { baseUrl: this.baseUrl, model: this.model };
  }

  async checkAvailable(): Promise<void> {
    try {
      const { version } = await this.request((api) => api.version());
      this.log.debug({ version, url: this.baseUrl }, 'ollama is reachable');
    } catch (error) {
      if (!(error instanceof OllamaError) || error.kind === 'unreachable') throw error;
      // Something answered, but not as Ollama does (a proxy, another service on the port),
      // or nothing came back in time: either way there is no Ollama to talk to.
      throw new OllamaError(error.message, 'unreachable', START_HINT);
    }
  }

  async checkModel(model?: string): Promise<void> {
    const target = model === undefined ? this.target : { ...this.target, model };
    const names = await this.listModels();
    if (!names.some((name) => sameModel(name, target.model))) throw modelMissing(target);
  }

  async listModels(): Promise<string[]> {
    const listing = await this.request((api) => api.list());
    const models: unknown[] = Array.isArray(listing.models) ? listing.models : [];
    return models.flatMap((entry) => {
      const name: unknown = typeof entry === 'object' && entry !== null ? Reflect.get(entry, 'name') : undefined;
      return typeof name === 'string' ? [name] : [];
    });
  }

  async capabilities(): Promise<LlmCapabilities> {
    return this.capabilitiesOf(this.model);
  }

  private async capabilitiesOf(model: string): Promise<LlmCapabilities> {
    const found = readCapabilities(await this.show(model));
    return { ...found, tools: found.tools && !this.toolsRefused.has(model) };
  }

  private show(model: string): Promise<ShowResponse> {
    let pending = this.showCache.get(model);
    if (pending === undefined) {
      pending = this.request((api) => api.show({ model }), { baseUrl: this.baseUrl, model });
      this.showCache.set(model, pending);
      // A failed look-up is not remembered: the next call asks again.
      pending.catch(() => this.showCache.delete(model));
    }
    return pending;
  }

  async modelContext(model = this.model): Promise<ModelContext> {
    // Older servers answer `/api/ps` without `context_length`, or not at all: the budget then
    // keeps its assumption, and nothing of it reaches the screen.
    const quietly = <T>(lookUp: Promise<T>, what: string): Promise<T | undefined> =>
      lookUp.catch((error: unknown) => {
        this.log.debug({ err: error, model }, `ollama ${what} look-up failed`);
        return undefined;
      });
    const [listing, show] = await Promise.all([
      quietly(
        this.request((api) => api.ps()),
        '/api/ps',
      ),
      quietly(this.show(model), '/api/show'),
    ]);
    const loaded = readLoadedContext(listing, model);
    const maximum = readMaximumContext(show);
    return { ...(loaded === undefined ? {} : { loaded }), ...(maximum === undefined ? {} : { maximum }) };
  }

  async embed(model: string, texts: string[]): Promise<number[][]> {
    const reply = await this.request((api) => api.embed({ model, input: texts }), { baseUrl: this.baseUrl, model });
    return reply.embeddings;
  }

  pull(model: string, signal?: AbortSignal): AsyncGenerator<PullProgress> {
    return pullModel({ baseUrl: this.baseUrl, model }, this.guard(true, signal), signal, this.log);
  }

  async *chat(request: LlmRequest): AsyncGenerator<LlmChunk> {
    const { signal } = request;
    if (signal?.aborted) throw abortError();
    const target = request.model ? { baseUrl: this.baseUrl, model: request.model } : this.target;
    // Images are given only to a model that can see: asked of `/api/show` (cached) only when there are some.
    const vision = carriesImages(request) && (await this.capabilitiesOf(target.model)).vision === true;
    const body = buildChatBody({ ...this.settings, model: target.model }, request, vision);
    this.log.debug({ body: loggableBody(body) }, 'ollama chat request');
    const guard = this.guard(true, signal);
    const api = new Ollama({ host: this.baseUrl, fetch: guard.fetch });
    let opened = false;
    let finished = false;
    try {
      // The package sends the request and turns an error status into a `ResponseError`;
      // the guard reads the reply stream that request opened.
      await withRetry(() => guard.race(api.chat(asPackageRequest(body))), signal, this.log);
      opened = true;
      const replies = guard.replyObjects();
      for (;;) {
        const next = await guard.race(replies.next());
        if (next.done) break;
        for (const chunk of toLlmChunks(next.value)) {
          if (chunk.type === 'done') this.log.debug({ ...chunk }, 'ollama reply finished');
          yield chunk;
        }
      }
      finished = true;
    } catch (error) {
      throw this.chatFailure(error, { guard, signal, opened, target });
    } finally {
      // A consumer that stopped early, or a failure: release the connection now.
      if (!finished) guard.cancel();
      guard.release();
    }
  }

  private chatFailure(error: unknown, state: ChatState): Error {
    const { guard, signal, opened, target } = state;
    // Whatever the fetch threw on its way down, a cancelled turn is a cancellation.
    if (signal?.aborted) return abortError();
    let failure: OllamaError;
    if (guard.serverError !== undefined) failure = failedMidReply(target, guard.serverError);
    else if (error instanceof OllamaError || isResponseError(error) || !opened) failure = toOllamaError(error, target);
    else failure = failedMidReply(target, lostConnectionDetail(error));
    if (failure.kind === 'no-tool-support') {
      // Expected with some models; the chatbot switches to text tool calls.
      this.toolsRefused.add(target.model);
      this.log.info({ model: target.model }, 'model refused native tools');
    } else {
      this.log.warn({ kind: failure.kind, err: failure }, 'ollama chat failed');
    }
    return failure;
  }

  /** A short non-streaming request, with the idle timeout and connection retries. */
  private async request<T>(call: (api: Ollama) => Promise<T>, target: Target = this.target): Promise<T> {
    const guard = this.guard(false, undefined);
    const api = new Ollama({ host: this.baseUrl, fetch: guard.fetch });
    try {
      return await withRetry(() => guard.race(call(api)), undefined, this.log);
    } catch (error) {
      throw toOllamaError(error, target);
    } finally {
      guard.release();
    }
  }

  private guard(streaming: boolean, signal: AbortSignal | undefined): RequestGuard {
    const timeoutMs = this.settings.timeoutMs;
    return new RequestGuard({
      timeoutMs,
      signal,
      streaming,
      log: this.log,
      timeoutError: () => idleTimeout(this.target, timeoutMs),
    });
  }
}

interface ChatState {
  guard: RequestGuard;
  signal: AbortSignal | undefined;
  /** The response had started: a failure now is mid-reply, never retried. */
  opened: boolean;
  target: Target;
}
