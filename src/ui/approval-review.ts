/**
 * The approval question's scrollable view of a call that does not fit the box whole. Security:
 * `seen` turns true only once the last line has been on screen (or the whole call was put in the
 * scrollback), and until then the question takes no allowing answer: a harmful line in the middle
 * of a long script cannot be approved unseen. Lines are made inert here, where they are cut to the
 * box, so a cut never splits an escape and every row is as wide as it is drawn.
 */
import { approvalArguments } from '../present/argument-views.js';
import { type ReviewLine, reviewLines } from '../present/review-lines.js';
import { sanitizeForTerminal } from '../shared/terminal-text.js';
import { wrapWords } from './wrap-styled.js';
import type { ToolCall, WritePreview } from '../vocabulary/types.js';

/** Rows of the call shown at once: the box, its keys and the input line fit a 24-row terminal. */
export const REVIEW_ROWS = 12;
/** Columns of a row: with the box's border, padding and indent, a row fits 80 columns. */
const REVIEW_COLUMNS = 72;
const TAB_STOP = 8;

export interface ApprovalReview {
  /** Every line of the call, inert and cut to the box. */
  lines: ReviewLine[];
  /** The first line on screen. */
  top: number;
  /** The last line has been on screen, or the whole call was put in the scrollback. */
  seen: boolean;
}

function expandTabs(line: string): string {
  let column = 0;
  let out = '';
  for (const char of line) {
    const piece = char === '\t' ? ' '.repeat(TAB_STOP - (column % TAB_STOP)) : char;
    column += char === '\t' ? piece.length : 1;
    out += piece;
  }
  return out;
}

/** Text cut into rows of the box, every character kept. */
function cutRows(text: string): string[] {
  const chars = Array.from(text);
  const rows: string[] = [];
  for (let at = 0; at === 0 || at < chars.length; at += REVIEW_COLUMNS)
    rows.push(chars.slice(at, at + REVIEW_COLUMNS).join(''));
  return rows;
}

/** One line as rows of the box, each keeping the line's tone; an argument's text is cut, never reflowed. */
export function rowsOf(line: ReviewLine): ReviewLine[] {
  const inert = expandTabs(sanitizeForTerminal(line.text));
  const rows = line.note ? wrapWords(inert, REVIEW_COLUMNS) : cutRows(inert);
  return rows.map((text) => (line.tone ? { text, tone: line.tone } : { text }));
}

const atEnd = (lines: ReviewLine[], top: number): boolean => top + REVIEW_ROWS >= lines.length;

/** The view of a call that must be scrolled through, or undefined when its short view shows all of it. */
export function approvalReview(call: ToolCall, preview?: WritePreview): ApprovalReview | undefined {
  if (preview?.kind !== 'diff' && !approvalArguments(call.arguments).abbreviated) return undefined;
  const lines = reviewLines(call.arguments, preview).flatMap(rowsOf);
  return { lines, top: 0, seen: atEnd(lines, 0) };
}

/** The view moved `by` rows (negative: up), kept within the lines. */
export function scrolledBy(review: ApprovalReview, by: number): ApprovalReview {
  const top = Math.max(0, Math.min(review.top + by, review.lines.length - REVIEW_ROWS));
  return { ...review, top, seen: review.seen || atEnd(review.lines, top) };
}

/** What is on screen: its rows, and which of the lines they are (counted from 1). */
export function reviewWindow(review: ApprovalReview): { rows: ReviewLine[]; first: number; last: number } {
  const rows = review.lines.slice(review.top, review.top + REVIEW_ROWS);
  return { rows, first: review.top + 1, last: review.top + rows.length };
}
