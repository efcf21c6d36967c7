/**
 * The tools a request offers whatever the ranking says: those the config always includes, those
 * the message names, those `find_tools` found and those used earlier, in that order of precedence.
 */
import { displayName, modelName } from '../../vocabulary/tool-naming.js';
import type { OfferReason, ToolSpec } from '../../vocabulary/types.js';
import type { Candidate } from './tool-offer.js';

export interface Pins {
  /** Tool names per server (the config's `alwaysInclude`). */
  alwaysInclude: Record<string, string[]>;
  /** Display names, the most recent first. */
  found: readonly string[];
  used: readonly string[];
}

/** The pinned tools of `catalogue`, each with its reason; a tool may come more than once. */
export function pinnedTools(catalogue: ToolSpec[], message: string, pins: Pins): Candidate[] {
  const text = message.toLowerCase();
  const byName = new Map(catalogue.map((tool) => [displayName(tool), tool]));
  const named = (names: readonly string[], reason: OfferReason): Candidate[] =>
    names.flatMap((name) => {
      const tool = byName.get(name);
      return tool ? [[tool, reason]] : [];
    });
  const always = Object.entries(pins.alwaysInclude).flatMap(([server, tools]) =>
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
    ...mentioned.map((tool): Candidate => [tool, 'named']),
    ...named(pins.found, 'found'),
    ...named(pins.used, 'used'),
  ];
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
