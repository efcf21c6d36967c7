/** The input line with its cursor; while a prompt's argument is asked for, its name leads the line. */
import { Box, Text } from 'ink';
import type { LineState } from '../line-editor.js';

export function Prompt({
  line,
  busy,
  asking,
}: {
  line: LineState;
  busy: boolean;
  /** The prompt argument the line answers. */
  asking?: string | undefined;
}): React.JSX.Element {
  const before = line.text.slice(0, line.cursor);
  const under = line.text[line.cursor] ?? ' ';
  const after = line.text.slice(line.cursor + 1);
  return (
    <Box>
      <Text color={busy ? 'gray' : asking ? 'yellow' : 'cyan'} bold>
        {asking ? `${asking} › ` : '› '}
      </Text>
      <Text>
        {before}
        <Text inverse>{under === '\n' ? ' ' : under}</Text>
        {under === '\n' ? '\n' : ''}
        {after}
      </Text>
    </Box>
  );
}
