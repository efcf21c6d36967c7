/**
 * What is kept of the tools a server offered when the user came to rely on them, and what has
 * changed since: a server may rewrite a tool after it was trusted (new instructions in its
 * description, a new parameter, a claim to be read-only) or add one. A changed or new tool is
 * not offered to the model until the user accepts it.
 */
import { counted } from '../shared/plural.js';

/** What the model reads of a tool, and what approval takes its word for: compared whole. */
export interface PinnedTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  /** The server's `instructions`, which the model reads beside each of its tools. */
  instructions?: string;
}

/** The parts of a tool that are compared, in the order they are shown. */
export const TOOL_FIELDS = ['description', 'inputSchema', 'annotations', 'instructions'] as const;
export type ToolField = (typeof TOOL_FIELDS)[number];

export type ToolChange =
  { type: 'added'; tool: PinnedTool } | { type: 'changed'; before: PinnedTool; after: PinnedTool; fields: ToolField[] };

/** One server's tools that differ from what the user accepted, held back until they accept them. */
export interface ServerToolChanges {
  server: string;
  changes: ToolChange[];
}

export function changedToolName(change: ToolChange): string {
  return change.type === 'added' ? change.tool.name : change.after.name;
}

const FIELD_WORDS: Record<ToolField, string> = {
  description: 'description',
  inputSchema: 'input schema',
  annotations: 'annotations',
  instructions: 'server instructions',
};

/** `evaluate (description, input schema changed)`, `wipe (new)`: what a line says of each tool. */
export function describeChange(change: ToolChange): string {
  if (change.type === 'added') return `${change.tool.name} (new)`;
  return `${change.after.name} (${change.fields.map((field) => FIELD_WORDS[field]).join(', ')} changed)`;
}

/** `evaluate (description changed), wipe (new)`. */
export function summariseChanges({ changes }: ServerToolChanges): string {
  return changes.map(describeChange).join(', ');
}

/** `1 tool`, `2 tools`. */
export function changedToolCount(changes: ServerToolChanges): string {
  return counted(changes.changes.length, 'tool');
}
