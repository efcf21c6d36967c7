/**
 * Which tools one model request offers, within its budget (a share of `num_ctx`): the whole
 * catalogue when it fits, else the pinned tools then the ranking while they fit, and `find_tools`
 * leading to the rest. It remembers the session's used and found tools, which stay pinned.
 * The ranking (a search index, a stemmer and a lexicon) is loaded the first time a catalogue does
 * not fit: most catalogues do, and their sessions never load it.
 */
import type { ContextSize } from '../context-window.js';
import { errorResult } from '../tool-execution.js';
import { displayName, type ToolRef } from '../../vocabulary/tool-naming.js';
import type { ToolCall, ToolOffer, ToolProtocolName, ToolResult, ToolSpec } from '../../vocabulary/types.js';
import type { EmbeddingRanker } from './embedding-ranker.js';
import { FOUND_PER_SEARCH, catalogueServers, foundToolsText } from './find-tools.js';
import { pinnedTools } from './pinned-tools.js';
import { type Candidate, type Selection, fillBudget, wholeCatalogue } from './tool-offer.js';
import type { RankingRequest } from './ranking-request.js';

export type { Selection } from './tool-offer.js';

export interface ToolSelectionOptions {
  /** The model's context: a fixed size, or one read at each request (what Ollama reports may change it). */
  numCtx: number | ContextSize;
  /** The share of `num_ctx` the offered tools may take (0–1). */
  budgetShare: number;
  /** Tool names per server offered on every request (the config's `alwaysInclude`). */
  alwaysInclude: Record<string, string[]>;
  /** Set when `tools.embed_model` is configured. */
  embeddings?: EmbeddingRanker;
}

/**
 * How much more than its budget a request whose ranking is unsure may offer: enough for the right
 * tool further down to fit, little enough that the typical request, which is sure, is unchanged and
 * an unsure one stays within what a small context can spare (bench/tool-selection.ts measures both).
 * Listed tools take one line each, so a little stretch reaches far down; a longer one found no
 * more of the right tools and only made the offer longer.
 */
const UNSURE_STRETCH = 1.15;

const rankTools: typeof import('./tool-ranking.js').rankTools = async (...args) =>
  (await import('./tool-ranking.js')).rankTools(...args);

/** Tools remembered as used or found: a task's worth, so an old one does not hold budget forever. */
const MAX_REMEMBERED = 10;

/** Keeps the most recent `MAX_REMEMBERED` names, the newest first. */
function remember(list: string[], name: string): void {
  const at = list.indexOf(name);
  if (at >= 0) list.splice(at, 1);
  list.unshift(name);
  list.length = Math.min(list.length, MAX_REMEMBERED);
}

export class ToolSelection {
  private readonly used: string[] = [];
  private readonly found: string[] = [];
  /** What the last request offered, so `find_tools` returns only what the model has not seen. */
  private offered = new Set<string>();
  private catalogue: ToolSpec[] = [];

  constructor(private readonly options: ToolSelectionOptions) {}

  get budgetTokens(): number {
    const { numCtx, budgetShare } = this.options;
    return Math.floor((typeof numCtx === 'number' ? numCtx : numCtx.tokens) * budgetShare);
  }

  async select(
    catalogue: ToolSpec[],
    protocol: ToolProtocolName,
    request: RankingRequest,
    signal?: AbortSignal,
  ): Promise<Selection> {
    this.catalogue = catalogue;
    const target = { catalogue, protocol, budgetTokens: this.budgetTokens };
    const whole = wholeCatalogue(target);
    if (whole) {
      this.offered = whole.names;
      return whole.selection;
    }
    const ranking = await rankTools(catalogue, { ...request, used: this.used }, this.options.embeddings, signal);
    const pins = { alwaysInclude: this.options.alwaysInclude, found: this.found, used: this.used };
    const candidates: Candidate[] = [
      ...pinnedTools(catalogue, request.message, pins),
      ...ranking.tools.map((tool): Candidate => [tool, 'ranked']),
    ];
    // Unsure of the server, the offer takes a stretched budget: the right tool is then often further down.
    const budgetTokens = ranking.unsure ? Math.floor(target.budgetTokens * UNSURE_STRETCH) : target.budgetTokens;
    const { selection, names } = fillBudget(
      { ...target, budgetTokens, likely: ranking.likely },
      candidates,
      ranking.tools,
    );
    this.offered = names;
    const embeddings = this.embeddingsState(ranking.embedded);
    return embeddings ? { ...selection, offer: { ...selection.offer, embeddings } } : selection;
  }

  private embeddingsState(embedded: boolean): ToolOffer['embeddings'] {
    const ranker = this.options.embeddings;
    if (!ranker) return undefined;
    return embedded ? 'used' : { failed: ranker.failed ?? 'not available' };
  }

  /** A call that ran keeps its tool offered for the next requests of the session. */
  noteUsed(call: ToolRef): void {
    remember(this.used, displayName(call));
  }

  /** Runs `find_tools`: the best matches for the query among the tools not offered. */
  async find(call: ToolCall, signal?: AbortSignal): Promise<ToolResult> {
    const began = performance.now();
    const query = call.arguments.query;
    if (typeof query !== 'string' || query.trim() === '')
      return errorResult('find_tools needs "query": a few words saying what the tool should do.');
    const ranking = await rankTools(this.catalogue, { message: query, earlier: [] }, this.options.embeddings, signal);
    const matches = ranking.tools
      .filter((tool) => ranking.matched.has(tool) && !this.offered.has(displayName(tool)))
      .slice(0, FOUND_PER_SEARCH);
    for (const tool of [...matches].reverse()) remember(this.found, displayName(tool));
    return {
      isError: false,
      forModel: foundToolsText(query, matches, catalogueServers(this.catalogue)),
      durationMs: Math.round(performance.now() - began),
    };
  }

  /** Forgets the session's used and found tools (the conversation was cleared). */
  clear(): void {
    this.used.length = 0;
    this.found.length = 0;
  }
}
