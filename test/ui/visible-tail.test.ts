import { describe, expect, it } from 'vitest';
import { visibleTail } from '../../src/ui/visible-tail.js';

const lines = (count: number): string => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n');

describe('the live part of a streaming reply', () => {
  it('shows a short reply whole', () => {
    expect(visibleTail(lines(3), 80, 10)).toEqual({ hiddenLines: 0, text: lines(3) });
  });

  it('shows only the last rows of a reply taller than the budget, and counts the rest', () => {
    const tail = visibleTail(lines(50), 80, 10);
    expect(tail.hiddenLines).toBe(40);
    expect(tail.text.split('\n')).toEqual(Array.from({ length: 10 }, (_, i) => `line ${i + 41}`));
  });

  it('counts a long line by the rows it wraps to, ignoring escape sequences', () => {
    const wide = `\u001b[1m${'x'.repeat(25)}\u001b[22m`; // 3 rows at 10 columns
    const tail = visibleTail(['a', 'b', wide].join('\n'), 10, 4);
    expect(tail).toEqual({ hiddenLines: 1, text: ['b', wide].join('\n') });
  });

  it('always shows the last line, even when it alone is taller than the budget', () => {
    const tail = visibleTail(['first', 'y'.repeat(100)].join('\n'), 10, 3);
    expect(tail).toEqual({ hiddenLines: 1, text: 'y'.repeat(100) });
  });
});
