/**
 * Renders one committed history item; the only `switch` over item types in the UI.
 * Every text is made terminal-safe here, the last step before the screen.
 */
import { Box, Text } from 'ink';
import { assertNever } from '../../shared/errors.js';
import type { HistoryItem } from '../history.js';
import { sanitizeForTerminal } from '../../shared/terminal-text.js';
import { renderMarkdown } from '../markdown.js';
import { wrapListing } from '../../present/listing-layout.js';
import { ToolChangesView } from './ToolChangesView.js';
import { ToolLine } from './ToolLine.js';

export function HistoryItemView({ item, width }: { item: HistoryItem; width: number }): React.JSX.Element {
  switch (item.type) {
    case 'banner':
      return (
        <Box flexDirection="column" marginBottom={1}>
          <Text>
            <Text bold color="cyan">
              mcp-chat
            </Text>
            <Text dimColor>{` · model ${item.model} · config ${item.configSource}`}</Text>
          </Text>
          <Text dimColor>Type a message, or help for commands. Esc or Ctrl+C cancels a reply; Ctrl+D quits.</Text>
        </Box>
      );
    case 'user':
      return (
        <Box marginTop={1}>
          <Text color="cyan" bold>
            {'› '}
          </Text>
          <Text>{sanitizeForTerminal(item.text)}</Text>
        </Box>
      );
    case 'assistant':
      // A block of the same reply: a blank line apart, as blocks are in a render of the whole.
      return (
        <Box marginTop={item.continued ? 1 : 0}>
          <Text>{renderMarkdown(item.text, width)}</Text>
        </Box>
      );
    case 'tool':
      return <ToolLine call={item.call} result={item.result} width={width} />;
    case 'info':
      // A listing wraps under its text column, not back to column 0; other text is shown as it came.
      return (
        <Text dimColor>
          {item.listing ? wrapListing(sanitizeForTerminal(item.text), width) : sanitizeForTerminal(item.text)}
        </Text>
      );
    case 'error':
      return (
        <Box flexDirection="column">
          <Text color="red">{`✗ ${sanitizeForTerminal(item.text)}`}</Text>
          {item.hint ? <Text dimColor>{`  ${sanitizeForTerminal(item.hint)}`}</Text> : null}
        </Box>
      );
    case 'debug':
      return <Text color="gray">{`[debug] ${sanitizeForTerminal(item.text)}`}</Text>;
    case 'tool-changes':
      return <ToolChangesView changes={item.changes} />;
    default:
      return assertNever(item);
  }
}
