/**
 * The approval question's whole view of a call: every argument in full, line by line, and for a
 * write to a file the diff against its current content (engine/write-preview.ts) in place of the
 * new content. Security: nothing of the call is left out; a person scrolls through all of it.
 */
import { oneLineArgument, valueSize, valueText } from './argument-views.js';
import type { WritePreview } from '../vocabulary/types.js';

/** How a line of a diff reads: added, removed, or where a hunk starts. */
export type LineTone = 'added' | 'removed' | 'hunk';

/** One line of the view, raw (the printer makes it inert). */
export interface ReviewLine {
  text: string;
  tone?: LineTone;
  /** A line this view wrote about an argument (its size, what a preview found): wrapped at words. */
  note?: true;
}

/** The arguments a preview stands for: the new content, or the edits that make it. */
const PREVIEWED = new Set(['content', 'edits']);

const indented = (text: string): ReviewLine[] => text.split('\n').map((line) => ({ text: `  ${line}` }));

function toneOf(line: string): LineTone | undefined {
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+') && !line.startsWith('+++')) return 'added';
  if (line.startsWith('-') && !line.startsWith('---')) return 'removed';
  return undefined;
}

/** The patch's lines, without the `Index:` line and the rule the diff package puts above the file names. */
function diffLines(patch: string): ReviewLine[] {
  const lines = patch
    .replace(/\n$/, '')
    .split('\n')
    .filter((line) => !/^(=+|Index: .*)$/.test(line));
  const changed = lines.some((line) => line.startsWith('@@'));
  if (!changed) return [{ text: '  (no change: the file already holds this content)' }];
  return lines.map((line) => {
    const tone = toneOf(line);
    return tone ? { text: `  ${line}`, tone } : { text: `  ${line}` };
  });
}

/** What a preview without a diff says of the file: a new one, or one not compared, and why. */
export function previewNote(preview: Exclude<WritePreview, { kind: 'diff' }>): string {
  return preview.kind === 'new-file'
    ? `new file (reading it said: ${preview.reason})`
    : `not compared with the current file (${preview.reason})`;
}

function previewedArgument(key: string, value: unknown, preview: WritePreview): ReviewLine[] {
  if (preview.kind === 'diff')
    return [
      { text: `${key}: the change to ${preview.path}, against its current content:`, note: true },
      ...diffLines(preview.patch),
    ];
  const text = valueText(value);
  return [{ text: `${key}: ${previewNote(preview)}; ${valueSize(text)}:`, note: true }, ...indented(text)];
}

function argumentLines(key: string, value: unknown, preview: WritePreview | undefined): ReviewLine[] {
  if (preview && PREVIEWED.has(key)) return previewedArgument(key, value, preview);
  const oneLine = oneLineArgument(key, value);
  if (oneLine !== undefined) return [{ text: oneLine }];
  const text = valueText(value);
  return [{ text: `${key}: ${valueSize(text)}:`, note: true }, ...indented(text)];
}

/** Security: paths and other one-line arguments come first, on screen from the start, never after a long value. */
export function reviewLines(args: Record<string, unknown>, preview?: WritePreview): ReviewLine[] {
  const entries = Object.entries(args);
  if (entries.length === 0) return [{ text: '(no arguments)' }];
  const long = ([key, value]: [string, unknown]): boolean =>
    (preview !== undefined && PREVIEWED.has(key)) || oneLineArgument(key, value) === undefined;
  const ordered = [...entries.filter((entry) => !long(entry)), ...entries.filter(long)];
  return ordered.flatMap(([key, value]) => argumentLines(key, value, preview));
}
