/** Renders one committed history item; the only `switch` over item types in the UI. */
import { Box, Text } from 'ink';
import { assertNever } from '../../errors.js';
import type { HistoryItem } from '../history.js';
import { renderMarkdown } from '../markdown.js';
import { ToolLine } from './ToolLine.js';

export function HistoryItemView({ item, width }: { item: HistoryItem; width: number }): React.JSX.Element {
  switch (item.type) {
    case 'banner':
      return (
        <Box flexDirection="column" marginBottom={1}>
          <Text>
            <Text bold color="cyan">mcp-chat</Text>
            <Text dimColor>{` · model ${item.model} · config ${item.configSource}`}</Text>
          </Text>
          <Text dimColor>Type a message, or help for commands. Esc or Ctrl+C cancels a reply; Ctrl+D quits.</Text>
        </Box>
      );
    case 'user':
      return (
        <Box marginTop={1}>
          <Text color="cyan" bold>{'› '}</Text>
          <Text>{item.text}</Text>
        </Box>
      );
    case 'assistant':
      return <Text>{renderMarkdown(item.text, width)}</Text>;
    case 'tool':
      return <ToolLine call={item.call} result={item.result} />;
    case 'info':
      return <Text dimColor>{item.text}</Text>;
    case 'error':
      return (
        <Box flexDirection="column">
          <Text color="red">{`✗ ${item.text}`}</Text>
          {item.hint ? <Text dimColor>{`  ${item.hint}`}</Text> : null}
        </Box>
      );
    case 'debug':
      return <Text color="gray">{`[debug] ${item.text}`}</Text>;
    default:
      return assertNever(item);
  }
}
