/**
 * A tool as it is pinned (its hash and what it was), and what differs between the pins and the
 * tools a server offers now: a tool it did not offer then is new, one whose hash differs changed.
 * A tool it no longer offers is no risk, and is not reported.
 */
import { canonicalJson } from '../shared/canonical-json.js';
import { TOOL_FIELDS, type PinnedTool, type ToolChange, type ToolField } from '../vocabulary/tool-pins.js';
import { sha256 } from './trust-store.js';

export interface PinEntry {
  /** SHA-256 of the tool's canonical JSON, hex. */
  sha256: string;
  /** The tool as it was accepted, to show what changed. */
  tool: PinnedTool;
}

/** A tool's parts as compared: no annotations is the same as empty ones, no instructions as empty ones. */
function parts(tool: PinnedTool): Record<ToolField, string> {
  return {
    description: tool.description,
    inputSchema: canonicalJson(tool.inputSchema),
    annotations: canonicalJson(tool.annotations ?? {}),
    instructions: tool.instructions ?? '',
  };
}

/** The instructions are hashed only when there are some, so a tool of a server without them hashes as it always has. */
export function toolHash(tool: PinnedTool): string {
  const { instructions, ...rest } = parts(tool);
  return sha256(canonicalJson({ name: tool.name, ...rest, ...(instructions === '' ? {} : { instructions }) }));
}

export function pinEntry(tool: PinnedTool): PinEntry {
  return { sha256: toolHash(tool), tool };
}

function changedFields(before: PinnedTool, after: PinnedTool): ToolField[] {
  const was = parts(before);
  const now = parts(after);
  return TOOL_FIELDS.filter((field) => was[field] !== now[field]);
}

/** What the server offers now that the pins do not hold as it is, in the server's order. */
export function compareTools(pinned: readonly PinEntry[], tools: readonly PinnedTool[]): ToolChange[] {
  // A Map: tool names are the server's words, and `__proto__` must be a name like any other.
  const byName = new Map(pinned.map((entry) => [entry.tool.name, entry]));
  return tools.flatMap((tool): ToolChange[] => {
    const known = byName.get(tool.name);
    if (!known) return [{ type: 'added', tool }];
    if (known.sha256 === toolHash(tool)) return [];
    const fields = changedFields(known.tool, tool);
    return fields.length === 0 ? [] : [{ type: 'changed', before: known.tool, after: tool, fields }];
  });
}
