/** One line per tool call: server, tool, short arguments, duration, one-line result. */
import { Box, Text } from 'ink';
import type { ToolCall, ToolResult } from '../../chat/types.js';
import { formatArguments } from '../../cli/tool-line.js';

export function ToolLine({ call, result }: { call: ToolCall; result: ToolResult }): React.JSX.Element {
  return (
    <Box>
      <Text color={result.isError ? 'red' : 'green'}>{result.isError ? '✗ ' : '✓ '}</Text>
      <Text wrap="truncate-end">
        <Text bold>{`${call.server}.${call.tool}`}</Text>
        <Text dimColor>{`(${formatArguments(call.arguments)}) ${result.durationMs} ms → `}</Text>
        <Text color={result.isError ? 'red' : undefined}>{result.forDisplay}</Text>
      </Text>
    </Box>
  );
}
