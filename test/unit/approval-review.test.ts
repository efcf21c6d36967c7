/**
 * The approval question's scrolled view: every line of the call is in it, inert and cut to the
 * box, paths first; it counts as seen only once its last line has been on screen.
 */
import { describe, expect, it } from 'vitest';
import { approvalReview, REVIEW_ROWS, rowsOf, scrolledBy } from '../../src/ui/approval-review.js';
import type { ToolCall } from '../../src/vocabulary/types.js';

const write = (content: string): ToolCall => ({
  server: 'file',
  tool: 'write_file',
  arguments: { content, path: 'run.sh' },
});
const script = Array.from({ length: 40 }, (_, line) => `echo ${line}`).join('\n');

describe('approvalReview', () => {
  it('is not needed for a call the short view shows whole, nor for a short new file', () => {
    expect(approvalReview(write('hi'))).toBeUndefined();
    expect(approvalReview(write('hi'), { kind: 'new-file', path: 'run.sh', reason: 'no such file' })).toBeUndefined();
  });

  it('holds every line of a long value, after the path, and is unseen until its end is on screen', () => {
    const review = approvalReview(write(script));
    if (!review) throw new Error('a review');
    expect(review.lines.map((line) => line.text)).toEqual([
      'path: "run.sh"',
      `content: ${script.length} characters, 40 lines:`,
      ...script.split('\n').map((line) => `  ${line}`),
    ]);
    expect(review.seen).toBe(false);
    const nearly = scrolledBy(review, review.lines.length - REVIEW_ROWS - 1);
    expect(nearly.seen).toBe(false);
    const end = scrolledBy(nearly, 1);
    expect(end.seen).toBe(true);
    expect(scrolledBy(end, -1000)).toMatchObject({ top: 0, seen: true });
    expect(scrolledBy(end, 1000).top).toBe(review.lines.length - REVIEW_ROWS);
  });

  it('is seen at once when all of it fits the box', () => {
    expect(approvalReview(write('a\nb\nc'))).toMatchObject({ top: 0, seen: true });
  });

  it('shows a diff with its lines toned', () => {
    const patch = '--- run.sh\tcurrent\n+++ run.sh\tafter the call\n@@ -1 +1 @@\n-old\n+new\n';
    const review = approvalReview(write('new'), { kind: 'diff', path: 'run.sh', patch });
    expect(review?.lines.map((line) => [line.text.trim(), line.tone])).toEqual([
      ['path: "run.sh"', undefined],
      ['content: the change to run.sh, against its current content:', undefined],
      ['--- run.sh    current', undefined],
      ['+++ run.sh    after the call', undefined],
      ['@@ -1 +1 @@', 'hunk'],
      ['-old', 'removed'],
      ['+new', 'added'],
    ]);
  });
});

describe('rowsOf', () => {
  it('cuts a long line into rows of the box, keeping every character, escapes made inert', () => {
    const line = `${'x'.repeat(100)}\u001b[2J\u202e${'y'.repeat(10)}`;
    const rows = rowsOf({ text: line, tone: 'added' }).map((row) => row.text);
    expect(rows.join('')).toBe(`${'x'.repeat(100)}\\u202E${'y'.repeat(10)}`);
    expect(rows.every((row) => row.length <= 72)).toBe(true);
    expect(rowsOf({ text: line, tone: 'added' }).every((row) => row.tone === 'added')).toBe(true);
  });

  it('expands tabs to the columns they take', () => {
    expect(rowsOf({ text: 'a\tb' })).toEqual([{ text: 'a       b' }]);
  });
});
