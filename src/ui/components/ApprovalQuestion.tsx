/**
 * The approval question: which tool, every argument, and the keys, shown only once they work. A
 * call that fits is shown as it is (paths whole; long values with their size, first and last
 * lines); one that does not is scrolled through whole, a write to an existing file as a diff, and
 * `y` and `a` work once it has been seen to its end. Made inert here, where it is printed:
 * arguments come from the model and may carry escapes or invisible characters.
 */
import { Box, Text } from 'ink';
import { displayName } from '../../vocabulary/tool-naming.js';
import { approvalArguments } from '../../present/argument-views.js';
import { type LineTone, previewNote } from '../../present/review-lines.js';
import { sanitizeForTerminal } from '../../shared/terminal-text.js';
import { type ApprovalReview, reviewWindow } from '../approval-review.js';
import type { ApprovalActivity } from '../history.js';

const TONE_COLOURS: Record<LineTone, string> = { added: 'green', removed: 'red', hunk: 'cyan' };

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

/** The arguments as they fit the box. */
function ShortView({ activity }: { activity: ApprovalActivity }): React.JSX.Element {
  const { lines, abbreviated } = approvalArguments(activity.call.arguments);
  const { preview } = activity;
  return (
    <>
      {lines.map((line, index) => (
        <Text key={index}>{`  ${sanitizeForTerminal(line)}`}</Text>
      ))}
      {preview && preview.kind !== 'diff' ? (
        <Text color="yellow">{`  ${sanitizeForTerminal(previewNote(preview))}`}</Text>
      ) : null}
      {abbreviated ? <Text dimColor>[v] puts the whole call in the scrollback</Text> : null}
    </>
  );
}

/** The rows of the call on screen now, where they are, and what is still to be seen. */
function ScrolledView({ review, unseen }: { review: ApprovalReview; unseen: boolean }): React.JSX.Element {
  const { rows, first, last } = reviewWindow(review);
  const scrolls = review.lines.length > rows.length;
  return (
    <>
      {rows.map((row, index) => (
        <Text key={review.top + index} {...(row.tone && { color: TONE_COLOURS[row.tone] })}>{`  ${row.text}`}</Text>
      ))}
      {scrolls ? (
        <Text dimColor>{`lines ${first}–${last} of ${review.lines.length}  ↑/↓ j/k PgUp/PgDn scroll`}</Text>
      ) : null}
      <Text dimColor>[v] puts the whole call in the scrollback</Text>
      {review.seen ? null : unseen ? (
        <Text color="yellow">scroll to the end (↓) or press v to see the whole call first</Text>
      ) : (
        <Text dimColor>y and a work once you have seen the end of the call (↓ or v).</Text>
      )}
    </>
  );
}

export function ApprovalQuestion({ activity }: { activity: ApprovalActivity }): React.JSX.Element {
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
      <Text>
        <Text bold>{sanitizeForTerminal(displayName(activity.call))}</Text>
        {' wants to run with:'}
      </Text>
      {activity.review ? (
        <ScrolledView review={activity.review} unseen={activity.unseen === true} />
      ) : (
        <ShortView activity={activity} />
      )}
      <Keys activity={activity} />
    </Box>
  );
}
