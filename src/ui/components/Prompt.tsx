/** The input line with its cursor; while something is asked (a prompt's argument, a server's question), it leads the line. */
import { Box, Text } from 'ink';
import { memo } from 'react';
import { sanitizeForTerminal } from '../../shared/terminal-text.js';
import type { LineState } from '../line-editor.js';

const MASK = '•';

/** Tab's candidates listed at most: more would push the screen up for what typing one more letter narrows. */
const MAX_CANDIDATES = 20;

/** Tab's candidates in a row, two spaces apart; Ink wraps the row at the screen's width. */
function candidatesText(candidates: string[]): string {
  const shown = candidates.slice(0, MAX_CANDIDATES).map(sanitizeForTerminal).join('  ');
  const more = candidates.length - MAX_CANDIDATES;
  return more > 0 ? `${shown}  … ${more} more` : shown;
}

function InputLine({
  line,
  busy,
  label,
  hint,
  masked,
}: {
  line: LineState;
  busy: boolean;
  /** What the line answers (a prompt's argument, a server's question). */
  label?: string | undefined;
  /** Said under the line: what the answer takes, and what is wrong with it so far. */
  hint?: string | undefined;
  /** A secret is asked for: each character shows as a dot. */
  masked?: boolean | undefined;
}): React.JSX.Element {
  const text = masked ? MASK.repeat(line.text.length) : line.text;
  const before = text.slice(0, line.cursor);
  const under = text[line.cursor] ?? ' ';
  const after = text.slice(line.cursor + 1);
  return (
    <Box flexDirection="column">
      <Box>
        <Text color={label ? 'yellow' : busy ? 'gray' : 'cyan'} bold>
          {label ? `${sanitizeForTerminal(label)} › ` : '› '}
        </Text>
        <Text>
          {before}
          <Text inverse>{under === '\n' ? ' ' : under}</Text>
          {under === '\n' ? '\n' : ''}
          {after}
        </Text>
      </Box>
      {hint ? <Text dimColor>{sanitizeForTerminal(hint)}</Text> : null}
      {line.candidates ? <Text dimColor>{candidatesText(line.candidates)}</Text> : null}
    </Box>
  );
}

/** Memoised: a streaming reply redraws the screen at every frame, and the line changes only as it is typed. */
export const Prompt = memo(InputLine);
