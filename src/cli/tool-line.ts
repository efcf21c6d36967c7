/**
 * One line per tool call for people: server, tool, short arguments, duration and a
 * one-line result, never the raw JSON the model wrote.
 */
import type { ToolCall, ToolResult } from '../chat/types.js';
import { sanitizeForDisplay } from '../mcp/content.js';

/** Characters of the arguments shown on a tool line. */
const MAX_ARGS_CHARS = 60;

export function formatArguments(args: Record<string, unknown>): string {
  const text = Object.entries(args)
    .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
    .join(', ');
  return sanitizeForDisplay(text, MAX_ARGS_CHARS);
}

export function formatToolLine(call: ToolCall, result: ToolResult): string {
  const mark = result.isError ? '✗' : '✓';
  return `${mark} ${call.server}.${call.tool}(${formatArguments(call.arguments)}) ${result.durationMs} ms → ${result.forDisplay}`;
}

/** "1 tool", "5 tools": server summaries in `servers` and `doctor`. */
export function toolCount(count: number): string {
  return count === 1 ? '1 tool' : `${count} tools`;
}
