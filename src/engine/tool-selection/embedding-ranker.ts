/**
 * Similarity of each tool to a request by embeddings from the user's Ollama embedding model.
 * Each tool's text is embedded once: vectors are cached by a hash of the model and the text
 * (and kept in a store across runs when one is given). A failure is reported once and the
 * ranking goes on without embeddings: they refine the order, they are never required.
 */
import { createHash } from 'node:crypto';
import type { Logger } from '../../shared/log.js';
import type { ToolSpec } from '../../vocabulary/types.js';
import { toolText } from './tool-text.js';

/** Ollama's `/api/embed`, or anything that turns texts into vectors, in order. */
export interface TextEmbedder {
  readonly model: string;
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

/** Where vectors outlive the process, keyed by `vectorKey`. */
export interface VectorStore {
  load(): Promise<Map<string, number[]>>;
  save(vectors: Map<string, number[]>): Promise<void>;
}

/** Request texts remembered per process: a turn's steps ask for the same request again. */
const MAX_REMEMBERED_REQUESTS = 32;

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

export class EmbeddingRanker {
  private vectors: Promise<Map<string, number[]>> | undefined;
  private readonly requests = new Map<string, number[]>();
  private failure: string | undefined;
  private readonly toolKeys = new WeakMap<ToolSpec, { text: string; key: string }>();

  constructor(
    private readonly embedder: TextEmbedder,
    private readonly log: Logger,
    private readonly store?: VectorStore,
  ) {}

  /** Why embeddings are off for this session, once they have failed. */
  get failed(): string | undefined {
    return this.failure;
  }

  private key(text: string): string {
    return createHash('sha256').update(`${this.embedder.model}\n${text}`).digest('hex');
  }

  /** A tool's text and cache key, worked out once per tool: every request asks for all of them. */
  private keyed(tool: ToolSpec): { text: string; key: string } {
    let known = this.toolKeys.get(tool);
    if (!known) {
      const text = toolText(tool);
      this.toolKeys.set(tool, (known = { text, key: this.key(text) }));
    }
    return known;
  }

  /** Each tool's similarity to `request`; `undefined` once embeddings have failed. */
  async similarities(
    tools: ToolSpec[],
    request: string,
    signal?: AbortSignal,
  ): Promise<Map<ToolSpec, number> | undefined> {
    if (this.failure !== undefined) return undefined;
    try {
      const [vectors, query] = await Promise.all([
        this.toolVectors(tools, signal),
        this.requestVector(request, signal),
      ]);
      return new Map(tools.map((tool) => [tool, cosine(query, vectors.get(this.keyed(tool).key) ?? [])]));
    } catch (error) {
      if (signal?.aborted) throw error;
      this.failure = error instanceof Error ? error.message : String(error);
      this.log.warn({ model: this.embedder.model, err: error }, 'tool embeddings failed; ranking by words only');
      return undefined;
    }
  }

  private async requestVector(request: string, signal?: AbortSignal): Promise<number[]> {
    const known = this.requests.get(request);
    if (known) return known;
    const [vector] = await this.embedder.embed([request], signal);
    if (!vector) throw new Error(`the embedding model ${this.embedder.model} returned no vector`);
    if (this.requests.size >= MAX_REMEMBERED_REQUESTS) this.requests.clear();
    this.requests.set(request, vector);
    return vector;
  }

  /** Vectors of every tool's text, embedding only the texts not seen before (one request for all of them). */
  private async toolVectors(tools: ToolSpec[], signal?: AbortSignal): Promise<Map<string, number[]>> {
    this.vectors ??= this.store ? this.store.load() : Promise.resolve(new Map());
    const vectors = await this.vectors;
    // Texts by key, each once: two servers may describe a tool alike.
    const missing = new Map<string, string>();
    for (const tool of tools) {
      const { text, key } = this.keyed(tool);
      if (!vectors.has(key)) missing.set(key, text);
    }
    if (missing.size === 0) return vectors;
    const embedded = await this.embedder.embed([...missing.values()], signal);
    if (embedded.length !== missing.size)
      throw new Error(
        `the embedding model ${this.embedder.model} returned ${embedded.length} vectors for ${missing.size} texts`,
      );
    [...missing.keys()].forEach((key, index) => vectors.set(key, embedded[index] as number[]));
    await this.store?.save(vectors);
    return vectors;
  }
}
