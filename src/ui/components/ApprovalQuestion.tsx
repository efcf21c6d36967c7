/**
 * The approval question: which tool, every argument (paths whole; long values with their size,
 * first and last lines), and the keys, shown only once they work. Made inert here, where it is
 * printed: arguments come from the model and may carry escapes or invisible characters.
 */
import { Box, Text } from 'ink';
import { displayName } from '../../vocabulary/tool-naming.js';
import { approvalArguments } from '../../present/argument-views.js';
import { sanitizeForTerminal } from '../../shared/terminal-text.js';
import type { ApprovalActivity } from '../history.js';

function Keys({ activity }: { activity: ApprovalActivity }): React.JSX.Element {
  if (!activity.ready) return <Text dimColor>Read the call; the keys work in a moment (Esc denies now).</Text>;
  if (activity.choice) {
    const what = activity.choice === 'once' ? 'allow it once' : 'always allow this tool';
    return <Text>{`Press Enter to ${what} (y, a or n to change; Esc denies).`}</Text>;
  }
  return (
    <Text>
      <Text color="green">[y]</Text>
      {' allow once  '}
      <Text color="green">[a]</Text>
      {' always allow this tool  '}
      <Text color="red">[n]</Text>
      {' deny  then Enter'}
    </Text>
  );
}

export function ApprovalQuestion({ activity }: { activity: ApprovalActivity }): React.JSX.Element {
  const { lines, abbreviated } = approvalArguments(activity.call.arguments);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
      <Text>
        <Text bold>{sanitizeForTerminal(displayName(activity.call))}</Text>
        {' wants to run with:'}
      </Text>
      {lines.map((line, index) => (
        <Text key={index}>{`  ${sanitizeForTerminal(line)}`}</Text>
      ))}
      {abbreviated ? <Text dimColor>[v] puts the whole call in the scrollback</Text> : null}
      <Keys activity={activity} />
    </Box>
  );
}
