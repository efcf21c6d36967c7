/**
 * Which tools one model request offers. When the whole catalogue fits its budget (a share of
 * `num_ctx`), all of it, as the servers describe it: nothing else is computed. When it fits only
 * with shortened descriptions, all of it shortened. Otherwise the budget is filled in order:
 * the tools the config always includes, those the message names, those `find_tools` found, those
 * used earlier in the session, then the request's ranking; and `find_tools` leads to the rest.
 * Natively, the first few go as definitions and the rest as lines of the system prompt, which
 * cost a third as much: more tools fit, and the likeliest keep the model's own call format.
 */
import { errorResult } from '../tool-execution.js';
import { displayName, modelName, type ToolRef } from '../../vocabulary/tool-naming.js';
import type {
  OfferReason,
  OfferedTool,
  ToolCall,
  ToolOffer,
  ToolProtocolName,
  ToolResult,
  ToolSpec,
} from '../../vocabulary/types.js';
import { type CompactLevel, compactTool } from './compact-tool.js';
import type { EmbeddingRanker } from './embedding-ranker.js';
import { FOUND_PER_SEARCH, findToolsSpec, foundToolsText } from './find-tools.js';
import { catalogueTokens, listedTokens, toolTokens } from './tool-cost.js';
import { type RankingRequest, rankTools } from './tool-ranking.js';

export interface ToolSelectionOptions {
  numCtx: number;
  /** The share of `num_ctx` the offered tools may take (0–1). */
  budgetShare: number;
  /** Tool names per server offered on every request (the config's `alwaysInclude`). */
  alwaysInclude: Record<string, string[]>;
  /** Set when `tools.embed_model` is configured. */
  embeddings?: EmbeddingRanker;
}

/** What one request sends, and the account of it. */
export interface Selection {
  /** The tools to describe to the model, shortened where the offer says so. */
  tools: ToolSpec[];
  /** Natively, the offered tools listed in the system prompt instead (empty otherwise). */
  listed: ToolSpec[];
  offer: ToolOffer;
  /** `find_tools`, when only part of the catalogue is offered (it is also the last of `tools`). */
  findTools?: ToolSpec;
}

/** Tools remembered as used or found: a task's worth, so an old one does not hold budget forever. */
const MAX_REMEMBERED = 10;

/**
 * The tools a selection offers with their parameters described (natively, as definitions); those
 * after them go bare (natively, listed in the system prompt). The likeliest few: describing eight
 * left room for one or two tools fewer, and natively more definitions leave room for fewer lines
 * (bench, 25 %: recall 0.979 on the corpus and 0.925 held out with five, 0.95 and 0.85 with twelve).
 */
const DESCRIBED_TOOLS = 5;
/**
 * The most of the budget one described tool may take; past it the tool goes bare. Described, a
 * big schema (Notion's `update-page-markdown`: 659 tokens, 346 bare) would take the place of
 * several other tools, and its parameter descriptions are worth less than those tools. A tenth
 * keeps most tools' descriptions (those of up to ~200 tokens at 25 % of num_ctx 8192).
 */
const MAX_DESCRIBED_SHARE = 0.1;

const compactForms: Record<CompactLevel, WeakMap<ToolSpec, ToolSpec>> = { short: new WeakMap(), bare: new WeakMap() };
function compactForm(tool: ToolSpec, level: CompactLevel): ToolSpec {
  let compact = compactForms[level].get(tool);
  if (!compact) compactForms[level].set(tool, (compact = compactTool(tool, level)));
  return compact;
}
const shortForm = (tool: ToolSpec): ToolSpec => compactForm(tool, 'short');

/** A tool's form in a request, what it costs, and whether it goes as a line of a native prompt. */
interface Placement {
  form: ToolSpec;
  cost: number;
  listed: boolean;
}

/** The whole catalogue offered at once, with the names in it. */
interface WholeCatalogue {
  selection: Selection;
  names: Set<string>;
}

const wholeCatalogues = new WeakMap<ToolSpec[], Map<string, WholeCatalogue | null>>();

/**
 * The whole catalogue as servers describe it when it fits, else shortened when that fits, else
 * null; once per catalogue, protocol and budget, since every request of every turn asks.
 */
function wholeCatalogue(
  catalogue: ToolSpec[],
  protocol: ToolProtocolName,
  budgetTokens: number,
): WholeCatalogue | null {
  let known = wholeCatalogues.get(catalogue);
  if (!known) wholeCatalogues.set(catalogue, (known = new Map()));
  const key = `${protocol} ${budgetTokens}`;
  let whole: WholeCatalogue | null | undefined = known.get(key);
  if (whole === undefined) {
    const full = catalogueTokens(catalogue, protocol);
    const short = full <= budgetTokens ? catalogue : catalogue.map(shortForm);
    const tokens = full <= budgetTokens ? full : catalogueTokens(short, protocol);
    whole =
      tokens > budgetTokens
        ? null
        : {
            names: new Set(catalogue.map(displayName)),
            selection: {
              tools: short,
              listed: [],
              offer: {
                catalogue: catalogue.length,
                budgetTokens,
                tokens,
                form: short === catalogue ? 'full' : 'short',
                tools: catalogue.map((tool) => offered(tool, 'all')),
              },
            },
          };
    known.set(key, whole);
  }
  return whole;
}

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
    return Math.floor(this.options.numCtx * this.options.budgetShare);
  }

  async select(
    catalogue: ToolSpec[],
    protocol: ToolProtocolName,
    request: RankingRequest,
    signal?: AbortSignal,
  ): Promise<Selection> {
    this.catalogue = catalogue;
    const budgetTokens = this.budgetTokens;
    const whole = wholeCatalogue(catalogue, protocol, budgetTokens);
    if (whole) {
      this.offered = whole.names;
      return whole.selection;
    }
    const account = { catalogue: catalogue.length, budgetTokens };

    const ranking = await rankTools(catalogue, { ...request, used: this.used }, this.options.embeddings, signal);
    const rankOf = new Map(ranking.tools.map((tool, index) => [tool, index + 1]));
    const candidates: [ToolSpec, OfferReason][] = [
      ...this.pinned(catalogue, request.message),
      ...ranking.tools.map((tool): [ToolSpec, OfferReason] => [tool, 'ranked']),
    ];
    const chosen = new Map<ToolSpec, { reason: OfferReason } & Placement>();
    const servers = [...new Set(catalogue.map((tool) => tool.server))];
    // Sized for the largest count it can show, so adding it never breaks the budget.
    let tokens = toolTokens(findToolsSpec(catalogue.length, catalogue.length, servers), protocol);
    const listedServers = new Set<string>();
    for (const [tool, reason] of candidates) {
      if (chosen.has(tool)) continue;
      const placement = this.placement(tool, protocol, chosen.size < DESCRIBED_TOOLS, listedServers);
      // The user's own `alwaysInclude` is kept even past the budget: the context check reports it.
      if (reason !== 'always' && tokens + placement.cost > budgetTokens) continue;
      chosen.set(tool, { reason, ...placement });
      if (placement.listed) listedServers.add(tool.server);
      tokens += placement.cost;
    }
    this.offered = new Set([...chosen.keys()].map(displayName));
    const placed = [...chosen.values()];
    const tools = placed.filter(({ listed }) => !listed).map(({ form }) => form);
    const listed = placed.filter(({ listed }) => listed).map(({ form }) => form);
    const findTools = findToolsSpec(chosen.size, catalogue.length, servers);
    tools.push(findTools);
    const entries = [...chosen].map(([tool, { reason, listed }]) => ({
      ...offered(tool, reason, reason === 'ranked' ? rankOf.get(tool) : undefined),
      ...(listed ? { listed } : {}),
    }));
    const listedCost = placed.reduce((sum, { listed, cost }) => sum + (listed ? cost : 0), 0);
    const embeddings = this.embeddingsState(ranking.embedded);
    return {
      tools,
      listed,
      findTools,
      offer: {
        ...account,
        tokens,
        ...(listed.length > 0 ? { listedTokens: listedCost } : {}),
        form: 'short',
        tools: entries,
        ...(embeddings ? { embeddings } : {}),
      },
    };
  }

  /**
   * Smaller descriptions before fewer tools: past the first few, or when too big, parameters go
   * undescribed; natively, the tools past the first few are listed in the system prompt, the
   * first of them paying for the section's heading and the first of each server for its own.
   */
  private placement(
    tool: ToolSpec,
    protocol: ToolProtocolName,
    described: boolean,
    listedServers: Set<string>,
  ): Placement {
    if (described) {
      const form = shortForm(tool);
      const cost = toolTokens(form, protocol);
      if (cost <= this.budgetTokens * MAX_DESCRIBED_SHARE) return { form, cost, listed: false };
    }
    const form = compactForm(tool, 'bare');
    if (described || protocol !== 'native') return { form, cost: toolTokens(form, protocol), listed: false };
    return { form, cost: listedTokens(form, listedServers), listed: true };
  }

  /** The tools offered whatever the ranking says, each with its reason, in that order of precedence. */
  private pinned(catalogue: ToolSpec[], message: string): [ToolSpec, OfferReason][] {
    const text = message.toLowerCase();
    const byName = new Map(catalogue.map((tool) => [displayName(tool), tool]));
    const named = (names: string[], reason: OfferReason): [ToolSpec, OfferReason][] =>
      names.flatMap((name) => {
        const tool = byName.get(name);
        return tool ? [[tool, reason]] : [];
      });
    const always = Object.entries(this.options.alwaysInclude).flatMap(([server, tools]) =>
      tools.map((tool) => `${server}.${tool}`),
    );
    const mentioned = catalogue.filter(
      (tool) =>
        text.includes(displayName(tool).toLowerCase()) ||
        text.includes(modelName(tool).toLowerCase()) ||
        namesAlone(tool.name, text),
    );
    return [
      ...named(always, 'always'),
      ...mentioned.map((tool): [ToolSpec, OfferReason] => [tool, 'named']),
      ...named(this.found, 'found'),
      ...named(this.used, 'used'),
    ];
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
    const servers = [...new Set(this.catalogue.map((tool) => tool.server))];
    return {
      isError: false,
      forModel: foundToolsText(query, matches, servers),
      durationMs: Math.round(performance.now() - began),
    };
  }

  /** Forgets the session's used and found tools (the conversation was cleared). */
  clear(): void {
    this.used.length = 0;
    this.found.length = 0;
  }
}

/**
 * A tool name such as `get-sum` or `read_file` standing alone in the text: what a server's prompt or
 * resource writes when it tells the model which tool to use. A plain word (`evaluate`) could be
 * anything, so only names with a `_` or `-` count.
 */
function namesAlone(name: string, text: string): boolean {
  if (!/[_-]/.test(name)) return false;
  const lower = name.toLowerCase();
  for (let at = text.indexOf(lower); at >= 0; at = text.indexOf(lower, at + 1)) {
    const before = text[at - 1] ?? ' ';
    const after = text[at + lower.length] ?? ' ';
    if (!/[\w-]/.test(before) && !/[\w-]/.test(after)) return true;
  }
  return false;
}

function offered(tool: ToolSpec, reason: OfferReason, rank?: number): OfferedTool {
  return { name: displayName(tool), reason, ...(rank === undefined ? {} : { rank }) };
}
