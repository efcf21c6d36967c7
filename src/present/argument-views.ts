/**
 * Tool-call arguments for people, in the two places they are judged: the one-line tool
 * line, and the approval question, where nothing may hide. Security: a path is never cut
 * (a harmless start and a `.git/hooks/…` after the cut is how a write is approved blind),
 * and a long value shows its size, its first and its last line, and whole where it is reviewed
 * (review-lines.ts).
 */
import { counted } from '../shared/plural.js';

/** A value of at most this many characters, on one line, is shown whole in the approval question. */
const SHORT_VALUE_CHARS = 100;
/** Characters of a long value's first and last lines in the approval question. */
const EDGE_CHARS = 100;
/** Characters of the arguments on a tool line, paths apart: those are never cut. */
const LINE_ARGS_CHARS = 60;
/** However long the paths, the other arguments keep this much room. */
const MIN_OTHER_CHARS = 12;

const PATH_KEY = /path|file|dir|folder|root|uri|url|dest|source|target|cwd/i;

/** Arguments that name a place: shown whole, first. */
function isPathLike(key: string, value: unknown): boolean {
  return typeof value === 'string' && PATH_KEY.test(key);
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** `key=value` pairs for a tool line: paths whole and first, the rest in what is left of the budget. */
export function lineArguments(args: Record<string, unknown>): string {
  const entries = Object.entries(args);
  const pair = ([key, value]: [string, unknown]): string => `${key}=${JSON.stringify(value) ?? String(value)}`;
  const paths = entries
    .filter(([key, value]) => isPathLike(key, value))
    .map(pair)
    .join(', ');
  const others = entries
    .filter(([key, value]) => !isPathLike(key, value))
    .map(pair)
    .join(', ');
  if (!paths || !others) return paths || cut(others, LINE_ARGS_CHARS);
  const room = Math.max(MIN_OTHER_CHARS, LINE_ARGS_CHARS - paths.length - 2);
  return `${paths}, ${cut(others, room)}`;
}

/** A value as text: strings as written (their own lines), anything else as indented JSON. */
export function valueText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? String(value));
}

/** An argument shown on one line, whole: a path, or a short value without line breaks. */
export function oneLineArgument(key: string, value: unknown): string | undefined {
  const compact = JSON.stringify(value) ?? String(value);
  const short =
    typeof value === 'string'
      ? !value.includes('\n') && value.length <= SHORT_VALUE_CHARS
      : compact.length <= SHORT_VALUE_CHARS;
  return isPathLike(key, value) || short ? `${key}: ${compact}` : undefined;
}

/** A long value's size, as its summary line says it. */
export function valueSize(text: string): string {
  return `${counted(text.length, 'character')}, ${counted(text.split('\n').length, 'line')}`;
}

/** One argument of the approval question: a line, or a summary line with its first and last lines. */
function describeArgument(key: string, value: unknown): string[] {
  const oneLine = oneLineArgument(key, value);
  if (oneLine !== undefined) return [oneLine];
  const text = valueText(value);
  const lines = text.split('\n');
  const first = JSON.stringify(cut(lines[0] ?? '', EDGE_CHARS));
  const last = JSON.stringify(cut(lines.at(-1) ?? '', EDGE_CHARS));
  const summary = `${key}: ${valueSize(text)}`;
  return lines.length === 1
    ? [summary, `  starts ${first}`]
    : [summary, `  first line ${first}`, `  last line  ${last}`];
}

export interface ApprovalArguments {
  /** Each argument on its own line or lines. */
  lines: string[];
  /** Something was summarised: the whole call is worth a look. */
  abbreviated: boolean;
}

export function approvalArguments(args: Record<string, unknown>): ApprovalArguments {
  const described = Object.entries(args).map(([key, value]) => describeArgument(key, value));
  return {
    lines: described.length === 0 ? ['(no arguments)'] : described.flat(),
    abbreviated: described.some((lines) => lines.length > 1),
  };
}

/** The whole call, every argument in full, for the scrollback. */
export function wholeArguments(args: Record<string, unknown>): string {
  return JSON.stringify(args, null, 2);
}
