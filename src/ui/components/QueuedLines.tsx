/** Lines sent while a turn runs, each on one line until it is sent. */
import { Box, Text } from 'ink';
import { memo } from 'react';
import { sanitizeForDisplay } from '../../shared/terminal-text.js';

const LABEL = 'queued: ';

function Queued({ lines, width }: { lines: string[]; width: number }): React.JSX.Element | null {
  if (lines.length === 0) return null;
  return (
    <Box flexDirection="column">
      {lines.map((line, index) => (
        <Text key={index} dimColor>
          {LABEL + sanitizeForDisplay(line, Math.max(1, width - LABEL.length))}
        </Text>
      ))}
    </Box>
  );
}

/** Memoised: a streaming reply redraws the screen at every frame, and the queue changes only with Enter. */
export const QueuedLines = memo(Queued);
