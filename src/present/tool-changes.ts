/**
 * What changed in a server's tools since the user accepted them, as lines for people: each part
 * that changed (description, input schema, annotations) as a line diff with a little context, a
 * new tool whole. `tools --changes` prints them as text; the REPL's question draws them in colour.
 * The lines carry the server's text raw: the printer makes it inert.
 */
import { structuredPatch } from 'diff';
import { canonicalJson } from '../shared/canonical-json.js';
import {
  changedToolCount,
  TOOL_FIELDS,
  type PinnedTool,
  type ServerToolChanges,
  type ToolChange,
  type ToolField,
} from '../vocabulary/tool-pins.js';

export type DiffLineKind = 'heading' | 'part' | 'added' | 'removed' | 'context' | 'gap';

export interface DiffLine {
  kind: DiffLineKind;
  text: string;
}

/** Lines of unchanged text shown around each change. */
const CONTEXT_LINES = 2;
/**
 * Edits a diff may find before it gives up and shows the old text and the new whole: a server's
 * text is the server's to make as long as it likes, and the diff must not take the chat's time.
 */
const MAX_EDITS = 200;

const PART_NAMES: Record<ToolField, string> = {
  description: 'description',
  inputSchema: 'input schema',
  annotations: 'annotations',
  instructions: 'server instructions',
};

function partText(tool: PinnedTool, field: ToolField): string {
  switch (field) {
    case 'description':
      return tool.description;
    case 'inputSchema':
      return canonicalJson(tool.inputSchema, 2);
    case 'annotations':
      return canonicalJson(tool.annotations ?? {}, 2);
    case 'instructions':
      return tool.instructions ?? '';
  }
}

/** Every line of `text` as one kind (a new tool's parts, or a diff given up on). */
function whole(text: string, kind: 'added' | 'removed'): DiffLine[] {
  return text.split('\n').map((line) => ({ kind, text: line }));
}

// The texts end with a line break, so the patch has no "no newline at end of file" lines.
function lineDiff(before: string, after: string): DiffLine[] {
  const patch = structuredPatch('', '', `${before}\n`, `${after}\n`, '', '', {
    context: CONTEXT_LINES,
    maxEditLength: MAX_EDITS,
  });
  if (!patch) return [...whole(before, 'removed'), ...whole(after, 'added')];
  return patch.hunks.flatMap((hunk, index) => [
    ...(index > 0 ? [{ kind: 'gap' as const, text: '…' }] : []),
    ...hunk.lines.flatMap((line): DiffLine[] => {
      const text = line.slice(1);
      if (line.startsWith('+')) return [{ kind: 'added', text }];
      if (line.startsWith('-')) return [{ kind: 'removed', text }];
      return line.startsWith(' ') ? [{ kind: 'context', text }] : [];
    }),
  ]);
}

function changeLines(change: ToolChange): DiffLine[] {
  if (change.type === 'added') {
    const { tool } = change;
    const parts = TOOL_FIELDS.filter((field) => field !== 'annotations' || tool.annotations !== undefined);
    return [
      { kind: 'heading', text: `${tool.name}: new tool` },
      ...parts.flatMap((field) => [
        { kind: 'part' as const, text: PART_NAMES[field] },
        ...whole(partText(tool, field), 'added'),
      ]),
    ];
  }
  const { before, after, fields } = change;
  return [
    { kind: 'heading', text: `${after.name}: ${fields.map((field) => PART_NAMES[field]).join(', ')} changed` },
    ...fields.flatMap((field) => [
      { kind: 'part' as const, text: PART_NAMES[field] },
      ...lineDiff(partText(before, field), partText(after, field)),
    ]),
  ];
}

/** The title line of a server's changes. */
export function changesTitle(changes: ServerToolChanges): string {
  return `${changes.server}: ${changedToolCount(changes)} new or changed since you accepted its tools`;
}

/** Each change of the server, heading first. */
export function toolChangeLines(changes: ServerToolChanges): DiffLine[] {
  return changes.changes.flatMap(changeLines);
}

const MARKS: Record<DiffLineKind, string> = {
  heading: '  ',
  part: '    ',
  added: '      + ',
  removed: '      - ',
  context: '        ',
  gap: '        ',
};

/** A diff line as plain text, its mark and indent first. */
export function plainDiffLine(line: DiffLine): string {
  return `${MARKS[line.kind]}${line.text}`;
}

/** One server's changes as text: the title, then each change. */
export function formatServerChanges(changes: ServerToolChanges): string {
  return [changesTitle(changes), ...toolChangeLines(changes).map(plainDiffLine)].join('\n');
}

/** `tools --changes`: every server's changes and how to accept them, or a line saying there are none. */
export function formatToolChanges(all: readonly ServerToolChanges[]): string {
  if (all.length === 0) return 'No tool changes wait: every server offers the tools you accepted.';
  return all
    .map((changes) => `${formatServerChanges(changes)}\nAccept them with: mcp-chat tools --accept ${changes.server}`)
    .join('\n\n');
}
