/**
 * Hostile patterns and abandoned calls against the file server's search_files, through a real
 * MCP client over InMemoryTransport and real directory trees. How far a walk got is counted
 * where the server touches the file system (`readdir` and each entry's `isDirectory`), never timed.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer } from '../../servers/file/server.js';
import { callText, connectInMemory } from '../helpers/in-memory-client.js';

/** The issue's pattern: every `**?` adds a live state, and nothing ends in "x". */
const HOSTILE = `${'**?'.repeat(30)}x`;
const LONG_NAMES = 8_000;
const TREE_DIRS = 150;

let root: string;
let client: Client;

async function createFiles(dir: string, names: readonly string[]): Promise<void> {
  await fsp.mkdir(dir, { recursive: true });
  // In batches, so the setup never holds thousands of open files at once.
  for (let start = 0; start < names.length; start += 250) {
    await Promise.all(names.slice(start, start + 250).map((name) => fsp.writeFile(path.join(dir, name), '')));
  }
}

/**
 * The directory a `readdir` call read. The server reads a directory through its checked open
 * handle's /proc/self/fd entry, which names the directory while the handle is open.
 */
function directoryRead(readdirPath: unknown): string {
  const text = String(readdirPath);
  return text.startsWith('/proc/self/fd/') ? fs.readlinkSync(text) : text;
}

/**
 * Counts `readdir` calls under `dir`; `onRead` gets each count as that call's entries arrive,
 * just before the walk goes through them.
 */
function watchReaddir(dir: string, onRead: (count: number) => void): () => number {
  const original = fsp.readdir.bind(fsp);
  let count = 0;
  vi.spyOn(fsp, 'readdir').mockImplementation((async (...args: Parameters<typeof fsp.readdir>) => {
    const entries = await original(...args);
    if (directoryRead(args[0]).startsWith(dir)) onRead(++count);
    return entries;
  }) as typeof fsp.readdir);
  return () => count;
}

beforeAll(async () => {
  root = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'search-files-attacks-')));
  // 250-character names: the longest most file systems allow, so each costs the most to match.
  const long = Array.from({ length: LONG_NAMES }, (_, i) => `${String(i).padStart(4, '0')}${'a'.repeat(246)}`);
  await createFiles(path.join(root, 'flat'), long);
  for (const tree of ['tree', 'twin']) {
    for (let i = 0; i < TREE_DIRS; i++) await createFiles(path.join(root, tree, `d${i}`), ['note.txt']);
  }
  client = await connectInMemory(createServer({ roots: [root] }), 'search-files-attacks');
}, 120_000);

afterEach(() => {
  vi.restoreAllMocks();
});

afterAll(async () => {
  await client.close();
  await fsp.rm(root, { recursive: true, force: true });
});

describe('search_files under attack', () => {
  it('hostile pattern: "**?" × 30 then "x" over 8,000 long names stops at the step budget, says how to write it, and the server answers next', async () => {
    const result = await callText(client, 'search_files', { pattern: HOSTILE, path: 'flat' });
    expect(result).toEqual({
      isError: true,
      text:
        `Pattern too costly: matching "${HOSTILE}" needed more than 50000000 steps, so the search was stopped. ` +
        'Use fewer wildcards in a row (e.g. "*x" instead of "**?**?…x"), or search under a narrower path',
    });
    expect(await callText(client, 'search_files', { pattern: '0042*', path: 'flat' })).toEqual({
      isError: false,
      text: `[FILE] ${path.join('flat', `0042${'a'.repeat(246)}`)}`,
    });
  });

  it('cancelled hostile search: the walk inside one large directory stops within 256 entries of the cancel', async () => {
    const cancel = new AbortController();
    watchReaddir(path.join(root, 'flat'), () => cancel.abort());
    const examined = vi.spyOn(fs.Dirent.prototype, 'isDirectory');
    const search = client.callTool({ name: 'search_files', arguments: { pattern: HOSTILE, path: 'flat' } }, undefined, {
      signal: cancel.signal,
    });
    await expect(search).rejects.toThrow(/abort/i);
    // The server takes this call only once the walk lets go of the event loop.
    expect((await callText(client, 'get_file_info', { path: 'flat' })).isError).toBe(false);
    expect(examined.mock.calls.length).toBeLessThanOrEqual(256);
  });

  it('cancelled search: the walk reads no further directory once the call is cancelled', async () => {
    const cancel = new AbortController();
    const tree = path.join(root, 'tree');
    const readdirs = watchReaddir(tree, (count) => {
      if (count === 3) cancel.abort();
    });
    const search = client.callTool({ name: 'search_files', arguments: { pattern: '*.txt', path: 'tree' } }, undefined, {
      signal: cancel.signal,
    });
    await expect(search).rejects.toThrow(/abort/i);
    // The same walk over an identical tree: a walk that ignored the cancel would finish first.
    const twin = await callText(client, 'search_files', { pattern: '*.txt', path: 'twin' });
    expect(twin.text.split('\n')).toHaveLength(TREE_DIRS);
    expect(readdirs()).toBe(3);
  });
});
