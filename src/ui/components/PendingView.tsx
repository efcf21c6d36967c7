/** The part of the screen that still changes: a spinner, the streaming reply, a running tool, or an approval question. */
import { Box, Text, useStdout } from 'ink';
import Spinner from 'ink-spinner';
import { memo } from 'react';
import { assertNever } from '../../errors.js';
import { formatArguments } from '../../cli/tool-line.js';
import type { Activity } from '../history.js';
import { renderMarkdown } from '../markdown.js';
import { visibleTail } from '../visible-tail.js';

function Working({ label }: { label: string }): React.JSX.Element {
  return (
    <Text>
      <Text color="yellow"><Spinner type="dots" /></Text>
      <Text dimColor>{` ${label}`}</Text>
    </Text>
  );
}

/** Rows below the live reply: the note on hidden lines, the status bar with its margin, the prompt, and one spare. */
const RESERVED_ROWS = 6;

function StreamingReply({ text, width }: { text: string; width: number }): React.JSX.Element {
  const { stdout } = useStdout();
  const tail = visibleTail(renderMarkdown(text, width), width, Math.max(1, (stdout.rows || 24) - RESERVED_ROWS));
  return (
    <Box flexDirection="column">
      {tail.hiddenLines > 0 ? <Text dimColor>{`… ${tail.hiddenLines} more lines above; the whole reply follows when it is complete`}</Text> : null}
      <Text>{tail.text}</Text>
    </Box>
  );
}

function PendingActivity({ activity, width }: { activity: Activity; width: number }): React.JSX.Element | null {
  switch (activity.type) {
    case 'idle':
      return null;
    case 'waiting':
      return <Working label="thinking… (Esc to cancel)" />;
    case 'streaming':
      return <StreamingReply text={activity.text} width={width} />;
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

/** Memoised: typing while a reply streams must not re-render (and re-parse) the markdown. */
export const PendingView = memo(PendingActivity);
