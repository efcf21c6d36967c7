/** Model, Ollama, the context and each server's state, and what the chat is doing: one line, fitted to the width. */
import { Box, Text } from 'ink';
import { Fragment, memo } from 'react';
import { GAP, statusParts, type StatusInput, type StatusPart } from '../status-line.js';

function Part({ part }: { part: StatusPart }): React.JSX.Element {
  if (part.tone === 'dim') return <Text dimColor>{part.text}</Text>;
  return <Text color={part.tone}>{part.text}</Text>;
}

function Status({ width, ...input }: StatusInput & { width: number }): React.JSX.Element {
  const parts = statusParts(input, width);
  const gap = ' '.repeat(GAP);
  return (
    <Box marginTop={1}>
      {/* One line: past what fits even in its shortest form, the end is cut, never wrapped under. */}
      <Text wrap="truncate-end">
        {parts.map((part, index) => (
          <Fragment key={part.text}>
            {index > 0 ? gap : ''}
            <Part part={part} />
          </Fragment>
        ))}
      </Text>
    </Box>
  );
}

/** Memoised: a streaming reply redraws the screen at every frame; the bar changes only with a server, Ollama, the context or the turn's step. */
export const StatusBar = memo(Status);
