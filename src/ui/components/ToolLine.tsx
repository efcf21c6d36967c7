/**
 * One line per tool call: server, tool, short arguments, duration, one-line result.
 * The result is sanitised again here, whatever host produced it: the line is the screen's.
 */
import { Text } from 'ink';
import type { ToolCall, ToolResult } from '../../chat/types.js';
import { formatArguments } from '../../cli/tool-line.js';
import { sanitizeForDisplay } from '../../mcp/content.js';

export function ToolLine({ call, result }: { call: ToolCall; result: ToolResult }): React.JSX.Element {
  // One Text, truncated as a whole: as separate flex items the mark would lose its space to a long result.
  return (
    <Text wrap="truncate-end">
      <Text color={result.isError ? 'red' : 'green'}>{result.isError ? '✗ ' : '✓ '}</Text>
      <Text bold>{`${call.server}.${call.tool}`}</Text>
      <Text dimColor>{`(${formatArguments(call.arguments)}) ${result.durationMs} ms → `}</Text>
      <Text color={result.isError ? 'red' : undefined}>{sanitizeForDisplay(result.forDisplay)}</Text>
    </Text>
  );
}
