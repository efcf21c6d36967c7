/**
 * How one tool goes into a request that offers part of the catalogue: smaller descriptions before
 * fewer tools. Natively, the tools past the first few are lines of the system prompt, which cost
 * less than definitions: more tools fit, and the likeliest keep the model's own call format.
 */
import type { ToolProtocolName, ToolSpec } from '../../vocabulary/types.js';
import { type CompactLevel, compactTool, firstSentence } from './compact-tool.js';
import { listedTokens, toolTokens } from './tool-cost.js';

/**
 * The tools a selection offers with their parameters described (natively, as definitions); those
 * after them go bare (natively, listed in the system prompt). The likeliest few: each described
 * tool takes the room of more bare ones, and natively more definitions leave room for fewer lines.
 * bench/tool-selection.ts measured recall higher with five than with twelve.
 */
export const DESCRIBED_TOOLS = 5;
/**
 * The most of the budget one described tool may take; past it the tool goes bare. Described, a
 * big schema (such as Notion's `update-page-markdown`) would take the place of several other
 * tools, and its parameter descriptions are worth less than those tools. A tenth keeps most
 * tools' descriptions.
 */
const MAX_DESCRIBED_SHARE = 0.1;

/** Each tool is shortened once per level: every request of every turn asks again. */
const compactForms: Record<CompactLevel, WeakMap<ToolSpec, ToolSpec>> = { short: new WeakMap(), bare: new WeakMap() };
function compactForm(tool: ToolSpec, level: CompactLevel): ToolSpec {
  let compact = compactForms[level].get(tool);
  if (!compact) compactForms[level].set(tool, (compact = compactTool(tool, level)));
  return compact;
}
export const shortForm = (tool: ToolSpec): ToolSpec => compactForm(tool, 'short');

/** A tool's form in a request, what it costs, and whether it goes as a line of a native prompt. */
export interface Placement {
  form: ToolSpec;
  cost: number;
  listed: boolean;
}

/**
 * Past the first few, or when too big, parameters go undescribed; natively, the tools past the
 * first few are listed in the system prompt, the first of them paying for the section's heading
 * and the first of each server (`listedServers` holds those already listed) for its own.
 */
export function placeTool(
  tool: ToolSpec,
  protocol: ToolProtocolName,
  described: boolean,
  listedServers: Set<string>,
  budgetTokens: number,
): Placement {
  if (described) {
    const form = shortForm(tool);
    const cost = toolTokens(form, protocol);
    if (cost <= budgetTokens * MAX_DESCRIBED_SHARE) return { form, cost, listed: false };
  }
  const form = compactForm(tool, 'bare');
  if (described || protocol !== 'native') return { form, cost: toolTokens(form, protocol), listed: false };
  const line = listedForm(tool);
  return { form: line, cost: listedTokens(line, listedServers), listed: true };
}

/**
 * A listed tool carries only the first sentence of its server's instructions: what the server is
 * for, without the paragraphs on using it, which a server of listed tools only (far down the
 * ranking) rarely needs and which would take the place of several tools. A server with a described
 * tool has its instructions in full from that tool.
 */
const listedForms = new WeakMap<ToolSpec, ToolSpec>();
/** The longest first sentence of a server's instructions a listed tool carries. */
const LISTED_INSTRUCTIONS_CHARS = 200;
function listedForm(tool: ToolSpec): ToolSpec {
  let form = listedForms.get(tool);
  if (!form) {
    const { serverInstructions, ...bare } = compactForm(tool, 'bare');
    const brief =
      serverInstructions === undefined
        ? ''
        : firstSentence(withoutHeadings(serverInstructions), LISTED_INSTRUCTIONS_CHARS);
    listedForms.set(tool, (form = brief === '' ? bare : { ...bare, serverInstructions: brief }));
  }
  return form;
}

/** Markdown headings name a text; its first sentence is after them. */
const withoutHeadings = (text: string): string => text.replace(/^\s*#.*$/gm, '').trim();
