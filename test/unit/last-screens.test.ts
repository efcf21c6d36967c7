/**
 * What the bundle's Ink keeps of the scrollback it wrote (src/ui/ink-patch/last-screens.ts): the
 * last screens' lines, whatever the session wrote before them, as a string of its own.
 */
import { describe, expect, it } from 'vitest';
import { KEPT_SCREENS, lastScreens } from '../../src/ui/ink-patch/last-screens.js';

const lines = (from: number, to: number): string =>
  Array.from({ length: to - from }, (_, n) => `line ${from + n}\n`).join('');

describe('last screens of the scrollback', () => {
  it('keeps a short scrollback whole', () => {
    const text = lines(0, 40 * KEPT_SCREENS);
    expect(lastScreens(text, 40)).toBe(text);
    expect(lastScreens('', 40)).toBe('');
  });

  it('keeps the last screens of a long one, line for line', () => {
    const kept = lastScreens(lines(0, 5_000), 40);
    expect(kept).toBe(lines(5_000 - 40 * KEPT_SCREENS, 5_000));
  });

  it('keeps the last line when it has no newline yet, and counts it as a line', () => {
    const kept = lastScreens(`${lines(0, 1_000)}partial`, 30);
    expect(kept).toBe(`${lines(1_001 - 30 * KEPT_SCREENS, 1_000)}partial`);
  });

  it('takes at least 24 rows a screen when the terminal says fewer or nothing', () => {
    const text = lines(0, 1_000);
    expect(lastScreens(text, undefined)).toBe(lines(1_000 - 24 * KEPT_SCREENS, 1_000));
    expect(lastScreens(text, 5)).toBe(lines(1_000 - 24 * KEPT_SCREENS, 1_000));
  });

  it('stays bounded however long a session appends to it', () => {
    let kept = '';
    for (let turn = 0; turn < 2_000; turn++) kept = lastScreens(kept + lines(turn * 3, turn * 3 + 3), 40);
    expect(kept.split('\n')).toHaveLength(40 * KEPT_SCREENS + 1);
    expect(kept.endsWith('line 5999\n')).toBe(true);
  });
});
