/**
 * One line per tool call: server, tool, arguments (paths whole), duration, one-line result; a call
 * the user's cancel stopped keeps its line, marked as cancelled.
 * The line is made inert here, where it is printed: the arguments and the result arrive raw.
 */
import { Text } from 'ink';
import { displayName } from '../../vocabulary/tool-naming.js';
import type { ToolCall, ToolResult } from '../../vocabulary/types.js';
import { formatArguments, lineMark, resultSummary } from '../../present/tool-line.js';
import { sanitizeForDisplay } from '../../shared/terminal-text.js';

export function ToolLine({
  call,
  result,
  width,
}: {
  call: ToolCall;
  result: ToolResult;
  width: number;
}): React.JSX.Element {
  const name = sanitizeForDisplay(displayName(call));
  const args = formatArguments(call.arguments);
  // One Text, cut at the end as a whole, so a long result gives way first; but a call too wide
  // for the terminal wraps instead, because a path is never cut.
  const fits = name.length + args.length + 4 <= width;
  const { mark, color } = lineMark(result);
  return (
    <Text wrap={fits ? 'truncate-end' : 'wrap'}>
      <Text color={color}>{`${mark} `}</Text>
      <Text bold>{name}</Text>
      <Text dimColor>{`(${args}) ${result.durationMs} ms → `}</Text>
      <Text color={result.isError && !result.cancelled ? 'red' : undefined}>{resultSummary(result)}</Text>
    </Text>
  );
}
