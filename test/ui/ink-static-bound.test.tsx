/**
 * The Ink in node_modules, as patches/ink+6.8.0.patch leaves it (the bundle carries the same one:
 * test/integration/bundle.test.ts): what `<Static>` wrote is kept for the redraw of a frame as tall
 * as the terminal, but only its last screens, so a long chat does not keep all it ever showed.
 */
import { EventEmitter } from 'node:events';
import type React from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONDITION_WAIT } from '../helpers/condition-wait.js';

/** A terminal of `rows` rows for Ink: it keeps every write. */
class FakeTerminal extends EventEmitter {
  readonly isTTY = true;
  readonly columns = 80;
  readonly writes: string[] = [];
  constructor(readonly rows: number) {
    super();
  }
  write(text: string): boolean {
    this.writes.push(text);
    return true;
  }
}

const STATIC_LINES = 1_000;
/** The patch keeps ten screens of at least 24 rows. */
const KEPT_LINES = 240;

afterEach(() => vi.unstubAllEnvs());

describe("the patched Ink's scrollback for redraws", () => {
  it('keeps only the last screens of what <Static> wrote when a tall frame makes it write them again', async () => {
    // Ink writes differently under CI (no live frame): read as a terminal would have it.
    for (const name of ['CI', 'CONTINUOUS_INTEGRATION']) vi.stubEnv(name, undefined);
    const { Box, Static, Text, render } = await import('ink');
    const terminal = new FakeTerminal(10);
    const lines = Array.from({ length: STATIC_LINES }, (_, index) => `scrollback line ${index + 1}`);
    const Screen = ({ tall }: { tall: number }): React.JSX.Element => (
      <Box flexDirection="column">
        <Static items={lines}>{(line) => <Text key={line}>{line}</Text>}</Static>
        {Array.from({ length: tall }, (_, row) => (
          <Text key={row}>{`live row ${row} of ${tall}`}</Text>
        ))}
      </Box>
    );
    const stdout = terminal as unknown as NodeJS.WriteStream;
    const app = render(<Screen tall={12} />, { stdout, patchConsole: false, exitOnCtrlC: false, maxFps: 0 });
    app.rerender(<Screen tall={13} />);
    await vi.waitFor(
      () => expect(terminal.writes.some((text) => text.includes('live row 12 of 13'))).toBe(true),
      CONDITION_WAIT,
    );
    const redraw = terminal.writes.findLast((text) => text.includes('live row 12 of 13'));
    app.unmount();
    expect(redraw).toBeDefined();
    expect(redraw).toContain(`scrollback line ${STATIC_LINES}\n`);
    expect(redraw).toContain(`scrollback line ${STATIC_LINES - KEPT_LINES + 1}\n`);
    expect(redraw).not.toContain(`scrollback line ${STATIC_LINES - KEPT_LINES}\n`);
    expect(redraw).not.toContain('scrollback line 1\n');
  });
});

// Colours written as escape codes, as the chat's markdown gives them to Ink, whatever colour level this terminal has.
const RED = 31;
const GREEN = 32;
const BLUE = 34;
const colour = (code: number, text: string): string => `\u001B[${code}m${text}\u001B[39m`;

describe("the patched Ink's styled characters shared across frames", () => {
  it('draws each frame as its own lines say, in their own colours, keeping the characters of lines that stay and rebuilding those that changed', async () => {
    for (const name of ['CI', 'CONTINUOUS_INTEGRATION']) vi.stubEnv(name, undefined);
    const { Box, Text, render } = await import('ink');
    const terminal = new FakeTerminal(40);
    // Every row changes each frame and one stays, so each frame draws both kept and rebuilt lines.
    const Frame = ({ frame }: { frame: number }): React.JSX.Element => (
      <Box flexDirection="column">
        <Text>{colour(GREEN, 'steady line')}</Text>
        {Array.from({ length: 30 }, (_, row) => (
          <Text key={row}>{colour(row % 2 === 0 ? RED : BLUE, `frame ${frame} row ${row}`)}</Text>
        ))}
      </Box>
    );
    const stdout = terminal as unknown as NodeJS.WriteStream;
    const app = render(<Frame frame={0} />, { stdout, patchConsole: false, exitOnCtrlC: false, maxFps: 0 });
    for (let frame = 1; frame <= 12; frame++) {
      app.rerender(<Frame frame={frame} />);
      await vi.waitFor(
        () => expect(terminal.writes.some((text) => text.includes(`frame ${frame} row 29`))).toBe(true),
        CONDITION_WAIT,
      );
    }
    const last = terminal.writes.findLast((text) => text.includes('frame 12 row 29')) ?? '';
    app.unmount();
    // Each row keeps its own colour, and no earlier frame's text is left.
    expect(last).toContain('\u001B[32msteady line');
    expect(last).toContain('\u001B[31mframe 12 row 0');
    expect(last).toContain('\u001B[34mframe 12 row 1');
    expect(last).toContain('\u001B[34mframe 12 row 29');
    expect(last).not.toMatch(/frame (\d|1[01]) row/);
  });
});
