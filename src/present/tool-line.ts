/**
 * A tool call as people read it, on one line: server, tool, short arguments, duration and
 * the result's first words, never the raw JSON the model wrote. Each piece is built with
 * the one-line sanitiser, because a line can only be cut once its escapes are gone.
 */
import { displayName } from '../vocabulary/tool-naming.js';
import type { ToolCall, ToolResult } from '../vocabulary/types.js';
import { sanitizeForDisplay } from '../shared/terminal-text.js';
import { lineArguments } from './argument-views.js';
import { counted } from '../shared/plural.js';

/** Room for the arguments on a tool line: paths are never cut, so this only stops a runaway line. */
const MAX_ARGS_CHARS = 4_000;

export function formatArguments(args: Record<string, unknown>): string {
  return sanitizeForDisplay(lineArguments(args), MAX_ARGS_CHARS);
}

/** The call as it is running: `server.tool(arguments)`. */
export function formatCall(call: ToolCall): string {
  return `${displayName(call)}(${formatArguments(call.arguments)})`;
}

/** The result's text on one short line; an image's line (`[image png 64×64, 1.2 kB]`) is never cut off it. */
export function resultSummary(result: ToolResult): string {
  const summary = sanitizeForDisplay(result.forModel);
  // A long text before an image would push its line past the end: those lines lead instead.
  const cutOff = (result.images ?? [])
    .map((image) => `[image ${image.label}]`)
    .filter((line) => !summary.includes(line));
  return cutOff.length === 0 ? summary : sanitizeForDisplay(`${cutOff.join(' ')} ${result.forModel}`);
}

/** How a line starts: done, failed, or stopped by the user's cancel (not a failure of the tool). */
export function lineMark(result: ToolResult): { mark: string; color: 'green' | 'red' | 'yellow' } {
  if (result.cancelled) return { mark: '⊘', color: 'yellow' };
  return result.isError ? { mark: '✗', color: 'red' } : { mark: '✓', color: 'green' };
}

export function formatToolLine(call: ToolCall, result: ToolResult): string {
  const { mark } = lineMark(result);
  return `${mark} ${formatCall(call)} ${result.durationMs} ms → ${resultSummary(result)}`;
}

/** "1 tool", "5 tools": server summaries in `servers` and `doctor`. */
export function toolCount(count: number): string {
  return counted(count, 'tool');
}
