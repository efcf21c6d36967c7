/**
 * Recursive name search under one directory, breadth-first and bounded in both results
 * and entries visited. Symbolic links are reported but never followed.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { FileToolError } from './file-errors.js';
import { makeNameMatcher, type NameMatcher } from './name-pattern.js';
import type { SandboxPath } from './sandbox.js';

/** Matches returned per search; more would flood the context and a narrower pattern helps more. */
export const MAX_SEARCH_RESULTS = 200;
/** Directory entries examined per search, so a huge tree cannot stall the server. */
export const MAX_VISITED_ENTRIES = 50_000;

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

async function walk(root: string, matches: NameMatcher, display: (relative: string) => string): Promise<Walk> {
  const state: Walk = { matches: [], visited: 0, unreadable: 0, stoppedEarly: false };
  const queue: string[] = [''];
  for (let relativeDir = queue.shift(); relativeDir !== undefined; relativeDir = queue.shift()) {
    let entries;
    try {
      entries = await fsp.readdir(path.join(root, relativeDir), { withFileTypes: true });
    } catch {
      state.unreadable++;
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (state.matches.length >= MAX_SEARCH_RESULTS || ++state.visited > MAX_VISITED_ENTRIES) {
        state.stoppedEarly = true;
        return state;
      }
      const relative = relativeDir === '' ? entry.name : `${relativeDir}/${entry.name}`;
      if (matches(relative, entry.name)) state.matches.push(`${tag(entry)} ${display(relative)}`);
      // Security: Dirent types come from lstat, so a symlinked directory is never descended into.
      if (entry.isDirectory() && !entry.isSymbolicLink()) queue.push(relative);
    }
  }
  return state;
}

export async function searchFiles(base: SandboxPath, pattern: string): Promise<string> {
  // The pattern is checked and compiled once, before any directory is read.
  const matches = makeNameMatcher(pattern);
  if (!(await fsp.stat(base.real)).isDirectory()) {
    throw new FileToolError(`${base.display} is not a directory; search_files searches under a directory`);
  }
  const display = (relative: string): string => (base.display === '.' ? relative : path.join(base.display, relative));
  const result = await walk(base.real, matches, display);
  const lines = result.matches.length > 0 ? [...result.matches] : [`No matches for "${pattern}" under ${base.display}`];
  if (result.stoppedEarly) {
    lines.push(
      `[stopped early: at most ${MAX_SEARCH_RESULTS} matches and ${MAX_VISITED_ENTRIES} entries per search; use a narrower pattern or path]`,
    );
  }
  if (result.unreadable > 0) lines.push(`[${result.unreadable} directories could not be read and were skipped]`);
  return lines.join('\n');
}
