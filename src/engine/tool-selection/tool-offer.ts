/**
 * What one request sends, built in one of two ways: the whole catalogue when it fits the budget
 * (shortened if it must be), else the candidates in order while they fit, and `find_tools`.
 */
import { displayName } from '../../vocabulary/tool-naming.js';
import type { OfferReason, OfferedTool, ToolOffer, ToolProtocolName, ToolSpec } from '../../vocabulary/types.js';
import { catalogueServers, findToolsSpec } from './find-tools.js';
import { catalogueInstructionsTokens, catalogueTokens, instructionsTokens, toolTokens } from './tool-cost.js';
import { DESCRIBED_TOOLS, type Placement, placeTool, shortForm } from './tool-placement.js';

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

/** A selection, with the display names of the tools it offers. */
export interface BuiltOffer {
  selection: Selection;
  names: Set<string>;
}

/** A tool that may be offered, and why. */
export type Candidate = [ToolSpec, OfferReason];

/** The request an offer is built for. */
export interface OfferTarget {
  catalogue: ToolSpec[];
  protocol: ToolProtocolName;
  budgetTokens: number;
  /** The ranking's likeliest tools: of the ranked ones, only these are described in full. */
  likely?: ReadonlySet<ToolSpec>;
}

const wholeCatalogues = new WeakMap<ToolSpec[], Map<string, BuiltOffer | null>>();

/**
 * The whole catalogue as servers describe it when it fits, else shortened when that fits, else
 * null; once per catalogue, protocol and budget, since every request of every turn asks.
 */
export function wholeCatalogue({ catalogue, protocol, budgetTokens }: OfferTarget): BuiltOffer | null {
  let known = wholeCatalogues.get(catalogue);
  if (!known) wholeCatalogues.set(catalogue, (known = new Map()));
  const key = `${protocol} ${budgetTokens}`;
  let whole: BuiltOffer | null | undefined = known.get(key);
  if (whole === undefined) {
    const notes = catalogueInstructionsTokens(catalogue, protocol);
    const full = catalogueTokens(catalogue, protocol) + notes;
    const short = full <= budgetTokens ? catalogue : catalogue.map(shortForm);
    const tokens = full <= budgetTokens ? full : catalogueTokens(short, protocol) + notes;
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
                ...inPrompt(protocol, notes),
                form: short === catalogue ? 'full' : 'short',
                tools: catalogue.map((tool) => offered(tool, 'all')),
              },
            },
          };
    known.set(key, whole);
  }
  return whole;
}

/** Natively, the part of an offer's tokens the system prompt carries, when there is one. */
const inPrompt = (protocol: ToolProtocolName, tokens: number): { listedTokens?: number } =>
  protocol === 'native' && tokens > 0 ? { listedTokens: tokens } : {};

type Chosen = Map<ToolSpec, { reason: OfferReason } & Placement>;

/**
 * The candidates that fit, each once, in order, and what they cost with `find_tools` and their
 * servers' instructions (`notes`, also within `tokens`) added.
 * The user's own `alwaysInclude` is kept even past the budget: the context check reports it.
 */
function choose(
  { catalogue, protocol, budgetTokens, likely }: OfferTarget,
  candidates: Candidate[],
  servers: string[],
): { chosen: Chosen; tokens: number; notes: number } {
  const chosen: Chosen = new Map();
  // Sized for the largest count it can show, so adding it never breaks the budget.
  let tokens = toolTokens(findToolsSpec(catalogue.length, catalogue.length, servers), protocol);
  let notes = 0;
  const listedServers = new Set<string>();
  const notedServers = new Set<string>();
  for (const [tool, reason] of candidates) {
    if (chosen.has(tool)) continue;
    const described = chosen.size < DESCRIBED_TOOLS && (reason !== 'ranked' || likely?.has(tool) !== false);
    const placement = placeTool(tool, protocol, described, listedServers, budgetTokens);
    const note = instructionsTokens(placement.form, protocol, notedServers);
    if (reason !== 'always' && tokens + placement.cost + note > budgetTokens) continue;
    chosen.set(tool, { reason, ...placement });
    if (placement.listed) listedServers.add(tool.server);
    if (note > 0) notedServers.add(tool.server);
    tokens += placement.cost + note;
    notes += note;
  }
  return { chosen, tokens, notes };
}

/** The candidates in order while they fit, then `find_tools`; `ranked` gives the ranked ones their rank. */
export function fillBudget(target: OfferTarget, candidates: Candidate[], ranked: ToolSpec[]): BuiltOffer {
  const { catalogue, budgetTokens } = target;
  const servers = catalogueServers(catalogue);
  const { chosen, tokens, notes } = choose(target, candidates, servers);
  const rankOf = new Map(ranked.map((tool, index) => [tool, index + 1]));
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
  return {
    names: new Set([...chosen.keys()].map(displayName)),
    selection: {
      tools,
      listed,
      findTools,
      offer: {
        catalogue: catalogue.length,
        budgetTokens,
        tokens,
        ...inPrompt(target.protocol, listedCost + notes),
        form: 'short',
        tools: entries,
      },
    },
  };
}

function offered(tool: ToolSpec, reason: OfferReason, rank?: number): OfferedTool {
  return { name: displayName(tool), reason, ...(rank === undefined ? {} : { rank }) };
}
