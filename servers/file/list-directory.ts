/**
 * Listing one directory: entries sorted by name and tagged by type. Symbolic links are
 * shown as links and never followed, so a listing reveals nothing outside the roots.
 */
import type { Dirent } from 'node:fs';
import fsp from 'node:fs/promises';
import { FileToolError } from './file-errors.js';
import type { SandboxPath } from './sandbox.js';

/** Entries shown per listing; beyond this a directory would flood the model's context. */
export const MAX_LIST_ENTRIES = 1000;

function entryTag(entry: Dirent): string {
  if (entry.isSymbolicLink()) return '[LINK]';
  if (entry.isDirectory()) return '[DIR]';
  if (entry.isFile()) return '[FILE]';
  return '[OTHER]';
}

export async function listDirectory(target: SandboxPath): Promise<string> {
  const info = await fsp.stat(target.real);
  if (!info.isDirectory()) {
    throw new FileToolError(`${target.display} is not a directory; use read_file or get_file_info for files`);
  }
  const entries = await fsp.readdir(target.real, { withFileTypes: true });
  if (entries.length === 0) return `${target.display} is an empty directory`;
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const lines = entries.slice(0, MAX_LIST_ENTRIES).map((entry) => `${entryTag(entry)} ${entry.name}`);
  if (entries.length > MAX_LIST_ENTRIES) {
    lines.push(`[truncated: showed ${MAX_LIST_ENTRIES} of ${entries.length} entries; use search_files to narrow down]`);
  }
  return lines.join('\n');
}
