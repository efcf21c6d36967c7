/** A task's status on the tool line: no numbers, so its message alone; numbers the server adds still show. */
import { describe, expect, it } from 'vitest';
import { formatProgress } from '../../src/present/tool-progress.js';

describe('formatProgress of a task status', () => {
  it.each([
    [{ progress: 0, message: 'working · Gathering sources...' }, 'working · Gathering sources...'],
    [{ progress: 0, total: 2, message: 'working · counting' }, '░░░░░░░░░░ 0/2 · working · counting'],
    [{ progress: 0 }, '0'],
    [{ progress: 3, message: 'working' }, '3 · working'],
  ])('%j → %s', (progress, expected) => {
    expect(formatProgress(progress)).toBe(expected);
  });
});
