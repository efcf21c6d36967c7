/** A model being pulled: its progress on one line, redrawn as the download goes, and how to stop it. */
import { Text } from 'ink';
import { memo } from 'react';
import { formatPullProgress, type PullView } from '../../present/pull-progress.js';

const HINT = '  Esc cancels';

function PullProgressLine({
  pulling,
  width,
}: {
  pulling: PullView | undefined;
  width: number;
}): React.JSX.Element | null {
  if (!pulling) return null;
  return (
    <Text>
      <Text color="yellow">{'↓ '}</Text>
      {formatPullProgress(pulling, width - HINT.length - 2)}
      <Text dimColor>{HINT}</Text>
    </Text>
  );
}

/** Memoised: typing while a model downloads must not redraw the line. */
export const PullLine = memo(PullProgressLine);
