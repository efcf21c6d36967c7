/**
 * A server's tools new or changed since the user accepted them, as the question about them shows
 * them in the scrollback: each change's heading, then its diff, added lines green and removed ones
 * red, whole. The server's text is made inert here, line by line.
 */
import { Box, Text } from 'ink';
import { changesTitle, plainDiffLine, toolChangeLines, type DiffLineKind } from '../../present/tool-changes.js';
import { sanitizeForTerminal } from '../../shared/terminal-text.js';
import type { ServerToolChanges } from '../../vocabulary/tool-pins.js';
import { TOOL_CHANGES_ANSWERS } from '../tool-changes-question.js';

const STYLES: Record<DiffLineKind, { color?: string; bold?: boolean; dimColor?: boolean }> = {
  heading: { bold: true },
  part: { color: 'cyan' },
  added: { color: 'green' },
  removed: { color: 'red' },
  context: { dimColor: true },
  gap: { dimColor: true },
};

export function ToolChangesView({ changes }: { changes: ServerToolChanges }): React.JSX.Element {
  return (
    <Box flexDirection="column">
      <Text color="yellow" bold>
        {sanitizeForTerminal(changesTitle(changes))}
      </Text>
      {toolChangeLines(changes).map((line, index) => (
        <Text key={index} {...STYLES[line.kind]}>
          {sanitizeForTerminal(plainDiffLine(line))}
        </Text>
      ))}
      <Text>{TOOL_CHANGES_ANSWERS}</Text>
    </Box>
  );
}
