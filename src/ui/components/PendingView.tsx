/** The part of the screen that still changes: a spinner, the streaming reply, a running tool, or an approval question. */
import { Box, Text, useStdout } from 'ink';
import Spinner from 'ink-spinner';
import { memo, useState, useSyncExternalStore } from 'react';
import { assertNever } from '../../shared/errors.js';
import { formatCall } from '../../present/tool-line.js';
import { formatProgress } from '../../present/tool-progress.js';
import { ApprovalQuestion } from './ApprovalQuestion.js';
import type { Activity } from '../history.js';
import type { StreamedText } from '../use-chat.js';
import { sanitizeForTerminal } from '../../shared/terminal-text.js';
import { StreamingMarkdown } from '../streaming-markdown.js';
import { visibleTail } from '../visible-tail.js';

function Working({ label }: { label: string }): React.JSX.Element {
  return (
    <Text>
      <Text color="yellow">
        <Spinner type="dots" />
      </Text>
      <Text dimColor>{` ${label}`}</Text>
    </Text>
  );
}

/** Rows below the live reply: the note on hidden lines, the status bar with its margin, the prompt, and one spare. */
const RESERVED_ROWS = 6;
/**
 * The most rows of a streaming reply shown at once: enough to read along. Ink redraws every row of
 * the live area on each frame, so each row shown costs CPU at every frame of a fast stream.
 */
const STREAMING_ROWS = 12;

interface StreamingProps {
  streamed: StreamedText;
  /** Blocks of the same reply are in the history already. */
  continues: boolean;
  width: number;
}

/**
 * Reads the reply's unfinished block itself: a frame of a streaming reply re-renders this alone, not
 * the screen around it. After the reply's finished blocks in the history, it is a blank line below them.
 */
function StreamingReply({ streamed, continues, width }: StreamingProps): React.JSX.Element {
  const text = useSyncExternalStore(streamed.subscribe, streamed.getSnapshot);
  const { stdout } = useStdout();
  const rows = Math.max(1, Math.min(STREAMING_ROWS, (stdout.rows || 24) - RESERVED_ROWS));
  const [markdown] = useState(() => new StreamingMarkdown());
  const view = markdown.render(text, width);
  const tail = visibleTail(view.text, width, rows);
  const hiddenLines = view.hiddenLines + tail.hiddenLines;
  return (
    <Box flexDirection="column" marginTop={continues ? 1 : 0}>
      {hiddenLines > 0 ? (
        <Text dimColor>{`… ${hiddenLines} more lines above; they follow when this part is complete`}</Text>
      ) : null}
      <Text>{tail.text}</Text>
    </Box>
  );
}

/** Rows of reasoning shown while it streams: enough to watch it move, never a screenful. */
const THINKING_ROWS = 6;

function LiveThinking({ text, width }: { text: string; width: number }): React.JSX.Element {
  const tail = visibleTail(sanitizeForTerminal(text.trim()), width, THINKING_ROWS);
  return (
    <Box flexDirection="column">
      <Working label="reasoning… (Esc to cancel)" />
      <Text dimColor>{tail.text}</Text>
    </Box>
  );
}

function PendingActivity({
  activity,
  ...streaming
}: StreamingProps & { activity: Activity }): React.JSX.Element | null {
  switch (activity.type) {
    case 'idle':
      return null;
    case 'waiting':
      return <Working label="thinking… (Esc to cancel)" />;
    case 'streaming':
      return <StreamingReply {...streaming} />;
    case 'thinking':
      return <LiveThinking text={activity.text} width={streaming.width} />;
    case 'tool':
      return (
        <Box flexDirection="column">
          {activity.calls.map(({ id, call }) => {
            const progress = activity.progress?.get(id);
            return (
              <Working
                key={id}
                label={progress ? `${formatCall(call)}  ${formatProgress(progress)}` : formatCall(call)}
              />
            );
          })}
        </Box>
      );
    case 'approval':
      return <ApprovalQuestion activity={activity} />;
    default:
      return assertNever(activity);
  }
}

/** Memoised: typing while a reply streams must not re-render (and re-parse) the markdown. */
export const PendingView = memo(PendingActivity);
