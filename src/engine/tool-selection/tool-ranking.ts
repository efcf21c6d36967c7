/**
 * Orders a catalogue by how well each tool fits a request: BM25 over the tools' words, the new
 * message counting fully and the recent turns at half weight; with an embedding model, fused
 * with the embedding order by reciprocal rank (neither scale has to be calibrated to the other).
 * The best few matches of each server the session has used move up. Tools that match nothing
 * keep the catalogue's order, after the ones that match.
 */
import type { ToolSpec } from '../../vocabulary/types.js';
import type { EmbeddingRanker } from './embedding-ranker.js';
import { lexicalIndex } from './lexical-index.js';
import { displayName } from '../../vocabulary/tool-naming.js';
import type { RankingRequest } from './ranking-request.js';

/** How much the earlier turns count beside the new message. */
const EARLIER_WEIGHT = 0.5;
/**
 * A tool scoring at least this share of the best is among the likeliest: a ranked tool further
 * down goes bare, leaving room for more tools (the share is chosen on the bench's corpus; the
 * figures are in docs/configuration.md).
 */
const LIKELY_SHARE = 0.8;
/**
 * When the best few tools come from this many servers or more, the words fit several servers and
 * the right tool is often further down the ranking: the offer then takes more of the context
 * (tool-selection.ts).
 */
const UNSURE_TOP = 5;
const UNSURE_SERVERS = 3;
/** Reciprocal rank fusion's constant: keeps one list's top few from drowning the other. */
const FUSION_K = 60;

function lexicalScores(tools: ToolSpec[], request: RankingRequest): Map<ToolSpec, number> {
  const index = lexicalIndex(tools);
  const now = index.scores(request.message);
  const before =
    request.earlier.length > 0 ? index.scores(request.earlier.join('\n'), false) : new Map<string, number>();
  const scores = new Map<ToolSpec, number>();
  for (const tool of tools) {
    const id = displayName(tool);
    const score = (now.get(id) ?? 0) + EARLIER_WEIGHT * (before.get(id) ?? 0);
    if (score > 0) scores.set(tool, score);
  }
  return scores;
}

/** Positions (0 = best) of the tools that have a score, highest score first. */
function positions(scores: Map<ToolSpec, number>): Map<ToolSpec, number> {
  const ordered = [...scores.entries()].sort((a, b) => b[1] - a[1]);
  return new Map(ordered.map(([tool], position) => [tool, position]));
}

export interface Ranking {
  /** The whole catalogue, best first. */
  tools: ToolSpec[];
  /** The tools that score near the best: the ranking's own likeliest, worth describing in full. */
  likely: Set<ToolSpec>;
  /** Whether the ranking is unsure which server the request is for (see `UNSURE_SERVERS`). */
  unsure: boolean;
  /** The tools that match the request at all (by words, or by embeddings when they took part). */
  matched: Set<ToolSpec>;
  /** Whether embeddings took part. */
  embedded: boolean;
}

export async function rankTools(
  tools: ToolSpec[],
  request: RankingRequest,
  embeddings?: EmbeddingRanker,
  signal?: AbortSignal,
): Promise<Ranking> {
  const lexical = lexicalScores(tools, request);
  const similar = await embeddings?.similarities(tools, request.message, signal);
  let scores = lexical;
  if (similar) {
    const lexicalPositions = positions(lexical);
    const similarPositions = positions(similar);
    const fused = (tool: ToolSpec, order: Map<ToolSpec, number>): number => {
      const position = order.get(tool);
      return position === undefined ? 0 : 1 / (FUSION_K + position);
    };
    scores = new Map(tools.map((tool) => [tool, fused(tool, lexicalPositions) + fused(tool, similarPositions)]));
  }
  const matched = new Set([...scores].flatMap(([tool, score]) => (score > 0 ? [tool] : [])));
  scores = withSessionServers(tools, scores, request.used ?? []);
  const catalogueOrder = new Map(tools.map((tool, index) => [tool, index]));
  const ranked = [...tools].sort(
    (a, b) =>
      (scores.get(b) ?? 0) - (scores.get(a) ?? 0) || (catalogueOrder.get(a) ?? 0) - (catalogueOrder.get(b) ?? 0),
  );
  const best = Math.max(0, ...scores.values());
  const likely = new Set(ranked.filter((tool) => (scores.get(tool) ?? 0) >= LIKELY_SHARE * best && best > 0));
  const unsure = new Set(ranked.slice(0, UNSURE_TOP).map((tool) => tool.server)).size >= UNSURE_SERVERS;
  return { tools: ranked, matched, likely, unsure, embedded: similar !== undefined };
}

/**
 * A session keeps working with the servers it has used ("hit enter" in a browser session), but
 * may turn to another at any message. So only a server's best few matches move up (its used tools
 * are offered anyway), by half the best score: enough to pass the weak matches of other servers,
 * not to push out a request's strong ones. Lifting all of a server's tools instead cost a request
 * that turns to another server its place (bench: the non-browser requests asked in a browser session).
 * Half and three were chosen on the odd lines of the bench corpus.
 */
const SESSION_LIFT = 0.5;
const SESSION_TOOLS = 3;

function withSessionServers(tools: ToolSpec[], scores: Map<ToolSpec, number>, used: string[]): Map<ToolSpec, number> {
  const servers = new Set(used.map((name) => name.slice(0, name.indexOf('.'))));
  if (servers.size === 0) return scores;
  const score = (tool: ToolSpec): number => scores.get(tool) ?? 0;
  // When nothing matches, the session's servers are the best guess there is.
  const lift = SESSION_LIFT * (Math.max(0, ...scores.values()) || 1);
  const lifted = new Map(scores);
  for (const server of servers) {
    const best = tools
      .filter((tool) => tool.server === server && !used.includes(displayName(tool)))
      .sort((a, b) => score(b) - score(a))
      .slice(0, SESSION_TOOLS);
    for (const tool of best) lifted.set(tool, score(tool) + lift);
  }
  return lifted;
}
