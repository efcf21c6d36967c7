/** A running call's progress line: a bar with the count when there is a total, the server's message made inert. */
import { describe, expect, it } from 'vitest';
import { formatProgress } from '../../src/present/tool-progress.js';

describe('formatProgress', () => {
  it.each([
    [{ progress: 3, total: 4 }, '████████░░ 3/4'],
    [{ progress: 0, total: 5, message: 'waiting for arXiv' }, '░░░░░░░░░░ 0/5 · waiting for arXiv'],
    [{ progress: 12 }, '12'],
    [{ progress: 9, total: 4 }, '██████████ 9/4'],
  ])('%j → %s', (progress, expected) => {
    expect(formatProgress(progress)).toBe(expected);
  });

  it('a hostile message is one inert line, cut to fit', () => {
    const line = formatProgress({ progress: 1, message: `\u001b[2Jwiped\nnext line ${'x'.repeat(200)}` });
    expect(line).not.toContain('\u001b');
    expect(line).not.toContain('\n');
    expect(line.length).toBeLessThan(80);
  });
});
