/**
 * Listing one directory: entries sorted by name and tagged by type. Symbolic links are
 * shown as links and never followed, and the directory is read through its checked open
 * handle, so a listing reveals nothing outside the roots.
 */
import type { Dirent } from 'node:fs';
import { readDirectoryInside } from './checked-open.js';
import type { Sandbox, SandboxPath } from './sandbox.js';

/** Entries shown per listing; beyond this a directory would flood the model's context. */
export const MAX_LIST_ENTRIES = 1000;

function entryTag(entry: Dirent): string {
  if (entry.isSymbolicLink()) return '[LINK]';
  if (entry.isDirectory()) return '[DIR]';
  if (entry.isFile()) return '[FILE]';
  return '[OTHER]';
}

export async function listDirectory(sandbox: Sandbox, target: SandboxPath, input: string): Promise<string> {
  const notDirectory = `${target.display} is not a directory; use read_file or get_file_info for files`;
  const entries = await readDirectoryInside(sandbox, target.real, input, notDirectory);
  if (entries.length === 0) return `${target.display} is an empty directory`;
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const lines = entries.slice(0, MAX_LIST_ENTRIES).map((entry) => `${entryTag(entry)} ${entry.name}`);
  if (entries.length > MAX_LIST_ENTRIES) {
    lines.push(`[truncated: showed ${MAX_LIST_ENTRIES} of ${entries.length} entries; use search_files to narrow down]`);
  }
  return lines.join('\n');
}
