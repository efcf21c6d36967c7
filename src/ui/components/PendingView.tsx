/** The part of the screen that still changes: a spinner, the streaming reply, a running tool, or an approval question. */
import { Box, Text } from 'ink';
import Spinner from 'ink-spinner';
import { assertNever } from '../../errors.js';
import { formatArguments } from '../../cli/tool-line.js';
import type { Activity } from '../history.js';
import { renderMarkdown } from '../markdown.js';

function Working({ label }: { label: string }): React.JSX.Element {
  return (
    <Text>
      <Text color="yellow"><Spinner type="dots" /></Text>
      <Text dimColor>{` ${label}`}</Text>
    </Text>
  );
}

export function PendingView({ activity, width }: { activity: Activity; width: number }): React.JSX.Element | null {
  switch (activity.type) {
    case 'idle':
      return null;
    case 'waiting':
      return <Working label="thinking… (Esc to cancel)" />;
    case 'streaming':
      return <Text>{renderMarkdown(activity.text, width)}</Text>;
    case 'tool':
      return <Working label={`${activity.call.server}.${activity.call.tool}(${formatArguments(activity.call.arguments)})`} />;
    case 'approval':
      return (
        <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
          <Text>
            <Text bold>{`${activity.call.server}.${activity.call.tool}`}</Text>
            <Text>{`(${formatArguments(activity.call.arguments)}) wants to run.`}</Text>
          </Text>
          <Text>
            <Text color="green">[y]</Text> allow once  <Text color="green">[a]</Text> always allow this tool  <Text color="red">[n]</Text> deny
          </Text>
        </Box>
      );
    default:
      return assertNever(activity);
  }
}
