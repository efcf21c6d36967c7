/**
 * What a write to a file would change, for the approval question. Security: a write approved on
 * its new content alone can silently replace a file the user never meant to touch; the question
 * shows a diff against the file as it is. The current content is read through the same server's
 * read tool (the file it would write is the file it reads), only when that read itself needs no
 * approval, and only for a moment: the question is never held up for long, nor asked twice.
 */
import type { ToolCall, ToolHost, ToolResult, WritePreview } from '../vocabulary/types.js';

/** How long the read of the current content may take before the question is asked without it. */
const READ_TIMEOUT_MS = 2_000;
/** Characters of the current content read: a file longer than a read returns is not compared. */
const READ_MAX_CHARS = 1_000_000;
/** Diffs of more changed lines than this are not worked out (Myers' cost grows with them). */
const MAX_EDIT_LINES = 5_000;
/** Characters of what a failed read said, kept as the reason. */
const REASON_CHARS = 160;
/** The read tools a file server offers, the first one offered is used. */
const READ_TOOLS = ['read_text_file', 'read_file'];
/** How a read says it did not return the whole file: our host's cap, our file server's, or a binary file. */
const INCOMPLETE = [/\n\[… truncated: showing \d+ of \d+ characters\]$/, /\n\[truncated: [^\n]*\]$/];
const BINARY = /^[^\n]* is a binary file \(\d+ bytes\); its content is not shown\.$/;

export interface PreviewContext {
  host: ToolHost;
  /** The approval rule: the read runs only when it would run unasked. */
  needsApproval: (call: ToolCall) => boolean;
  signal?: AbortSignal | undefined;
}

/** One replacement of an `edit_file` call: the first `oldText` becomes `newText`. */
interface Edit {
  oldText: string;
  newText: string;
}

/** What the call would make of the file's content, when it is a write this module understands. */
type Change = { path: string; apply: (current: string) => string | undefined };

function isEdit(value: unknown): value is Edit {
  if (typeof value !== 'object' || value === null) return false;
  const { oldText, newText } = value as Record<string, unknown>;
  return typeof oldText === 'string' && typeof newText === 'string';
}

function applyEdits(current: string, edits: Edit[]): string | undefined {
  let text = current;
  for (const { oldText, newText } of edits) {
    const at = text.indexOf(oldText);
    if (at < 0 || oldText === '') return undefined;
    text = text.slice(0, at) + newText + text.slice(at + oldText.length);
  }
  return text;
}

/** A whole-file write (`path` and `content`) or a list of edits (`path` and `edits`); else undefined. */
export function fileChange(call: ToolCall): Change | undefined {
  const { path, content, edits } = call.arguments;
  if (typeof path !== 'string') return undefined;
  if (typeof content === 'string' && /write|create|save/i.test(call.tool) && !/append/i.test(call.tool))
    return { path, apply: () => content };
  if (Array.isArray(edits) && edits.every(isEdit) && /edit/i.test(call.tool))
    return { path, apply: (current) => applyEdits(current, edits) };
  return undefined;
}

/** The read of `path` on the call's own server, if it has a read tool that runs unasked. */
function readCall(call: ToolCall, path: string, context: PreviewContext): ToolCall | undefined {
  const offered = new Set(context.host.listTools().flatMap((tool) => (tool.server === call.server ? [tool.name] : [])));
  const tool = READ_TOOLS.find((name) => offered.has(name));
  if (!tool) return undefined;
  const read: ToolCall = { server: call.server, tool, arguments: { path } };
  return context.needsApproval(read) ? undefined : read;
}

/** The preview from what the read returned. */
export async function previewFrom(change: Change, read: ToolResult): Promise<WritePreview> {
  const { path } = change;
  const said = (read.forModel.trim().split('\n')[0] ?? '').slice(0, REASON_CHARS);
  if (read.isError) return { kind: 'new-file', path, reason: said };
  const current = read.forModel;
  if (INCOMPLETE.some((pattern) => pattern.test(current)))
    return { kind: 'not-compared', path, reason: 'the current file is longer than a read returns' };
  if (BINARY.test(current)) return { kind: 'not-compared', path, reason: 'the current file is binary' };
  const next = change.apply(current);
  if (next === undefined) return { kind: 'not-compared', path, reason: 'an edit does not match the current file' };
  // Loaded here, not with the engine: most turns write no file.
  const { createTwoFilesPatch } = await import('diff');
  const patch = createTwoFilesPatch(path, path, current, next, 'current', 'after the call', {
    context: 3,
    maxEditLength: MAX_EDIT_LINES,
  });
  return patch === undefined
    ? { kind: 'not-compared', path, reason: 'too many changed lines to compare' }
    : { kind: 'diff', path, patch };
}

/** The preview of a write, or undefined when the call is not one or its server offers no read that runs unasked. */
export async function writePreview(call: ToolCall, context: PreviewContext): Promise<WritePreview | undefined> {
  const change = fileChange(call);
  const read = change && readCall(call, change.path, context);
  if (!change || !read) return undefined;
  const timeout = AbortSignal.timeout(READ_TIMEOUT_MS);
  const signal = context.signal ? AbortSignal.any([context.signal, timeout]) : timeout;
  // `callTool` never throws: a timeout or a cancel is an error result, which says nothing of the file.
  const result = await context.host.callTool(read, signal, undefined, READ_MAX_CHARS);
  if (timeout.aborted)
    return { kind: 'not-compared', path: change.path, reason: 'the current file was not read in time' };
  return context.signal?.aborted ? undefined : await previewFrom(change, result);
}
