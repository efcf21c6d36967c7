/**
 * Recursive name search under one directory, breadth-first and bounded in results, entries
 * visited and matching work. Symbolic links are reported but never followed. The walk yields
 * to the event loop as it goes and stops as soon as the call is cancelled. Each directory is
 * read through its own checked open handle, so one swapped for a link mid-walk is not entered.
 */
import type { Dirent } from 'node:fs';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { readDirectoryInside } from './checked-open.js';
import { FileToolError } from './file-errors.js';
import { chargedTo, GlobBudgetError, MatchBudget } from './glob.js';
import { makeNameMatcher, type NameMatcher } from './name-pattern.js';
import type { Sandbox, SandboxPath } from './sandbox.js';

/** Matches returned per search; more would flood the context and a narrower pattern helps more. */
export const MAX_SEARCH_RESULTS = 200;
/** Directory entries examined per search, so a huge tree cannot stall the server. */
export const MAX_VISITED_ENTRIES = 50_000;
/**
 * Matching steps per search (about a second of CPU). An ordinary glob spends a few steps per
 * character, so 50,000 entries stay far below it; `**?` repeated dozens of times does not.
 */
export const MAX_MATCH_STEPS = 50_000_000;
/** Entries matched between two turns of the event loop, so a cancellation is seen while a large directory is matched. */
const ENTRIES_PER_TURN = 256;

interface Walk {
  matches: string[];
  visited: number;
  unreadable: number;
  stoppedEarly: boolean;
}

function tag(entry: { isDirectory(): boolean; isSymbolicLink(): boolean }): string {
  if (entry.isSymbolicLink()) return '[LINK]';
  return entry.isDirectory() ? '[DIR]' : '[FILE]';
}

/** Security: the call was cancelled; the walk stops here and its result is never sent. */
function checkCancelled(signal: AbortSignal | undefined, visited: number): void {
  if (signal?.aborted) throw new FileToolError(`search_files was cancelled after ${visited} entries`);
}

/** Where the walk starts and how it reports. */
interface WalkBase {
  sandbox: Sandbox;
  base: SandboxPath;
  input: string;
  display: (relative: string) => string;
}

async function walk(
  { sandbox, base, input, display }: WalkBase,
  matches: NameMatcher,
  signal?: AbortSignal,
): Promise<Walk> {
  const state: Walk = { matches: [], visited: 0, unreadable: 0, stoppedEarly: false };
  const notDirectory = `${base.display} is not a directory; search_files searches under a directory`;
  const queue: string[] = [''];
  for (let relativeDir = queue.shift(); relativeDir !== undefined; relativeDir = queue.shift()) {
    checkCancelled(signal, state.visited);
    let entries: Dirent[];
    try {
      // Security: opened without following a link at its name and checked where it is, then read
      // through its handle: a directory swapped for a link since its parent was read is skipped.
      entries = await readDirectoryInside(sandbox, path.join(base.real, relativeDir), input, notDirectory);
    } catch (error) {
      // The base itself must be a directory inside the roots; below it, what cannot be read is counted.
      if (relativeDir === '') throw error;
      state.unreadable++;
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (state.matches.length >= MAX_SEARCH_RESULTS || ++state.visited > MAX_VISITED_ENTRIES) {
        state.stoppedEarly = true;
        return state;
      }
      if (state.visited % ENTRIES_PER_TURN === 0) {
        await nextTurn();
        checkCancelled(signal, state.visited);
      }
      const relative = relativeDir === '' ? entry.name : `${relativeDir}/${entry.name}`;
      if (matches(relative, entry.name)) state.matches.push(`${tag(entry)} ${display(relative)}`);
      // Security: Dirent types come from lstat, so a symlinked directory is never descended into.
      if (entry.isDirectory() && !entry.isSymbolicLink()) queue.push(relative);
    }
  }
  return state;
}

export async function searchFiles(
  sandbox: Sandbox,
  base: SandboxPath,
  input: string,
  pattern: string,
  signal?: AbortSignal,
): Promise<string> {
  // The pattern is checked and compiled once, before any directory is read.
  const budget = new MatchBudget(MAX_MATCH_STEPS);
  const matcher = makeNameMatcher(pattern);
  const matches: NameMatcher = (relative, name) => chargedTo(budget, () => matcher(relative, name));
  const display = (relative: string): string => (base.display === '.' ? relative : path.join(base.display, relative));
  let result: Walk;
  try {
    result = await walk({ sandbox, base, input, display }, matches, signal);
  } catch (error) {
    if (!(error instanceof GlobBudgetError)) throw error;
    throw new FileToolError(
      `Pattern too costly: matching "${pattern}" needed more than ${MAX_MATCH_STEPS} steps, so the search ` +
        'was stopped. Use fewer wildcards in a row (e.g. "*x" instead of "**?**?…x"), or search under a narrower path',
    );
  }
  const lines = result.matches.length > 0 ? [...result.matches] : [`No matches for "${pattern}" under ${base.display}`];
  if (result.stoppedEarly) {
    lines.push(
      `[stopped early: at most ${MAX_SEARCH_RESULTS} matches and ${MAX_VISITED_ENTRIES} entries per search; use a narrower pattern or path]`,
    );
  }
  if (result.unreadable > 0) lines.push(`[${result.unreadable} directories could not be read and were skipped]`);
  return lines.join('\n');
}
