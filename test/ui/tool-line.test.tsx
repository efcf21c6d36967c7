/**
 * The tool line on its own: server.tool(args) duration → one-line result, its error
 * variant, and that it stays one inert line whatever the arguments or the result hold.
 */
import { stripVTControlCharacters } from 'node:util';
import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolCall, ToolResult } from '../../src/vocabulary/types.js';
import { ToolLine } from '../../src/ui/components/ToolLine.js';

afterEach(() => cleanup());

const result = (forModel: string, overrides: Partial<ToolResult> = {}): ToolResult => ({
  isError: false,
  forModel,
  durationMs: 12,
  ...overrides,
});

function line(call: ToolCall, toolResult: ToolResult): string {
  const { lastFrame } = render(<ToolLine call={call} result={toolResult} width={100} />);
  return lastFrame() ?? '';
}

describe('ToolLine', () => {
  it('shows server, tool, short arguments, duration and the result', () => {
    const frame = line(
      { server: 'calculator', tool: 'evaluate', arguments: { expression: '1234*5678' } },
      result('7006652'),
    );
    expect(stripVTControlCharacters(frame)).toBe('✓ calculator.evaluate(expression="1234*5678") 12 ms → 7006652');
  });

  it('marks an error and shows its one-line message', () => {
    const frame = line(
      { server: 'file', tool: 'read_file', arguments: { path: 'missing.txt' } },
      result('Error: no such file missing.txt', { isError: true, durationMs: 3 }),
    );
    expect(stripVTControlCharacters(frame)).toBe(
      '✗ file.read_file(path="missing.txt") 3 ms → Error: no such file missing.txt',
    );
  });

  it('shortens long arguments and keeps a long, multi-line result on one line', () => {
    const frame = stripVTControlCharacters(
      line(
        { server: 'file', tool: 'write_file', arguments: { path: 'notes.md', content: 'x'.repeat(500) } },
        result(`first line\nsecond line ${'y'.repeat(300)}`),
      ),
    );
    expect(frame.split('\n')).toHaveLength(1);
    expect(frame).toMatch(/^✓ file\.write_file\(path="notes\.md", content="x+…\) 12 ms → first line .*…$/);
    expect(frame.length).toBeLessThanOrEqual(100);
  });

  it('never passes escape sequences or control characters from a result or an argument to the terminal', () => {
    const frame = line(
      { server: 'evil', tool: 'echo', arguments: { text: '\u001b[2Jboom' } },
      result('\u001b]0;pwned\u0007\u001b[31mred\u001b[0m\rdone'),
    );
    expect(frame).not.toMatch(/\u001b\[2J|\u001b\]0;|\u0007|\r/);
    expect(stripVTControlCharacters(frame)).toBe('✓ evil.echo(text="\\u001b[2Jboom") 12 ms → red done');
  });
});
