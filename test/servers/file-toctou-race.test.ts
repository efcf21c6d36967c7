/**
 * Races between the sandbox's check and the file operation: a separate process swaps a
 * path inside the root between its real entry and a link to outside, for real (rename and
 * symlink in a bounded loop), while a real MCP client calls the built file server, a child
 * process over stdio, through it. Every tool is raced. An escape is an answer that shows
 * outside content (a file's text, an outside name, an outside file's size) or anything new
 * outside the root; there must be none.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callText } from '../helpers/in-memory-client.js';
import { startSwapper, type SwapMode, type Swapper } from '../helpers/path-swapper.js';
import { connectBuiltServer } from '../helpers/stdio-client.js';

const SECRET = 'TOP SECRET: outside the sandbox';
const INSIDE = 'inside content';
/** Names that exist only outside or only inside, so a listing or a search shows which side it read. */
const OUTSIDE_ONLY = 'outside-only.txt';
const INSIDE_ONLY = 'inside-only.txt';
/** Calls made while the swapper runs: enough to land many of them inside the window. */
const CALLS = 1_500;
/** Calls kept in flight at once: the server works on several while the swapper swaps, as a model's parallel calls would. */
const IN_FLIGHT = 8;
/** The swapper's own bound; it also stops as soon as the calls are done. */
const MAX_SWAPS = 2_000_000;
const RACE_TEST_MS = 60_000;

const symlinksWork = process.platform !== 'win32';

let base: string;
let root: string;
let outside: string;
let outsideBefore: string[];
let client: Client;

interface Race {
  /** The test's name: the attack, and what must never happen. */
  name: string;
  mode: SwapMode;
  /** The path swapped, relative to the root (`link` mode makes it a link to `real` first). */
  swapped: string;
  /** What the swapped-in link points to, relative to the outside directory. */
  outsideTarget: string;
  tool: string;
  args: (i: number) => Record<string, unknown>;
  /** An answer that shows outside content. */
  escaped: (text: string) => boolean;
  /** An answer that shows the call worked between swaps: the race ran against a working server. */
  worked: (text: string) => boolean;
}

const leaksSecret = (text: string): boolean => text.includes(SECRET);
const namesOutside = (text: string): boolean => text.includes(OUTSIDE_ONLY);
const namesInside = (text: string): boolean => text.includes(INSIDE_ONLY);
const created = (text: string): boolean => text.startsWith('Created real/');
const sizeOf = (content: string) => (text: string) => text.includes(`size: ${Buffer.byteLength(content)} bytes`);

const READ = { tool: 'read_file', escaped: leaksSecret, worked: (text: string) => text.includes(INSIDE) };
const WRITE = { tool: 'write_file', escaped: leaksSecret, worked: created };
const DIR_SWAP = { mode: 'entry', swapped: 'real', outsideTarget: '.' } as const;
const LINK_SWAP = { mode: 'link', swapped: 'link', outsideTarget: '.' } as const;

const RACES: Race[] = [
  {
    name: 'race: a directory swapped for a link to outside between check and read never leaks outside content',
    ...DIR_SWAP,
    ...READ,
    args: () => ({ path: 'real/f.txt' }),
  },
  {
    name: 'race: a directory symlink retargeted to outside between check and read never leaks outside content',
    ...LINK_SWAP,
    ...READ,
    args: () => ({ path: 'link/f.txt' }),
  },
  {
    name: 'race: a directory swapped for a link to outside between check and write never writes outside',
    ...DIR_SWAP,
    ...WRITE,
    args: (i) => ({ path: `real/new-${i}.txt`, content: 'x' }),
  },
  {
    name: 'race: a directory symlink retargeted to outside between check and write never writes outside',
    ...LINK_SWAP,
    ...WRITE,
    args: (i) => ({ path: `link/new-${i}.txt`, content: 'x' }),
  },
  {
    name: 'write_file: a parent swapped for a symlink while missing parents are created never creates a directory outside the root',
    ...DIR_SWAP,
    ...WRITE,
    args: (i) => ({ path: `real/made-${i}/deeper/f.txt`, content: 'x' }),
  },
  {
    name: 'list_directory: a directory swapped for a symlink between check and list never lists outside the root',
    ...DIR_SWAP,
    tool: 'list_directory',
    args: () => ({ path: 'real' }),
    escaped: namesOutside,
    worked: namesInside,
  },
  {
    name: 'list_directory: a parent directory swapped for a symlink between check and list never lists outside the root',
    ...DIR_SWAP,
    tool: 'list_directory',
    args: () => ({ path: 'real/sub' }),
    escaped: namesOutside,
    worked: namesInside,
  },
  {
    name: 'get_file_info: a file swapped for a symlink between check and stat never describes the outside file',
    mode: 'entry',
    swapped: 'real/f.txt',
    outsideTarget: 'f.txt',
    tool: 'get_file_info',
    args: () => ({ path: 'real/f.txt' }),
    escaped: sizeOf(SECRET),
    worked: sizeOf(INSIDE),
  },
  {
    name: 'get_file_info: a parent directory swapped for a symlink between check and stat never describes an outside file',
    ...DIR_SWAP,
    tool: 'get_file_info',
    args: () => ({ path: 'real/f.txt' }),
    escaped: sizeOf(SECRET),
    worked: sizeOf(INSIDE),
  },
  {
    name: 'search_files: a directory swapped for a symlink during the walk is never walked into',
    ...DIR_SWAP,
    tool: 'search_files',
    args: () => ({ pattern: '*-only.txt' }),
    escaped: namesOutside,
    worked: namesInside,
  },
  {
    name: 'search_files: the base directory swapped for a symlink between check and walk never searches outside the root',
    ...DIR_SWAP,
    tool: 'search_files',
    args: () => ({ pattern: '*-only.txt', path: 'real' }),
    escaped: namesOutside,
    worked: namesInside,
  },
];

/** Everything under `dir`, as sorted relative paths. */
function tree(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

/** Makes CALLS calls, IN_FLIGHT at a time, while the swapper is running. */
async function callWhileSwapping(swapper: Swapper, race: Race): Promise<string[]> {
  const texts: string[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < CALLS && swapper.running(); i = next++) {
      texts.push((await callText(client, race.tool, race.args(i))).text);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return texts;
}

beforeEach(async () => {
  base = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'file-race-')));
  root = path.join(base, 'root');
  outside = path.join(base, 'outside');
  for (const side of [path.join(root, 'real'), outside]) await fsp.mkdir(path.join(side, 'sub'), { recursive: true });
  await fsp.writeFile(path.join(root, 'real', 'f.txt'), INSIDE);
  await fsp.writeFile(path.join(outside, 'f.txt'), SECRET);
  for (const dir of ['', 'sub']) {
    await fsp.writeFile(path.join(root, 'real', dir, INSIDE_ONLY), INSIDE);
    await fsp.writeFile(path.join(outside, dir, OUTSIDE_ONLY), SECRET);
  }
  await fsp.symlink(path.join(root, 'real'), path.join(root, 'link'));
  outsideBefore = tree(outside);
  client = await connectBuiltServer('file', [root], 'race-test');
});

afterEach(async () => {
  await client.close();
  await fsp.rm(base, { recursive: true, force: true });
});

describe.skipIf(!symlinksWork)('check-then-use races, through the file server process', () => {
  it.each(RACES.map((race) => [race.name, race] as const))(
    '%s',
    async (_name, race) => {
      const swapper = startSwapper({
        mode: race.mode,
        target: path.join(root, race.swapped),
        outside: path.join(outside, race.outsideTarget),
        insideDir: path.join(root, 'real'),
        stopFile: path.join(base, 'stop'),
        maxSwaps: MAX_SWAPS,
      });
      const texts = await callWhileSwapping(swapper, race);
      expect(await swapper.stop(), 'the swapper itself failed').toBe(0);
      expect(texts).toHaveLength(CALLS);
      const escapes = texts.filter(race.escaped);
      const landedOutside = tree(outside).filter((entry) => !outsideBefore.includes(entry));
      expect({ escapes: escapes.length, landedOutside }, `escapes out of ${texts.length} calls`).toEqual({
        escapes: 0,
        landedOutside: [],
      });
      expect(texts.some(race.worked)).toBe(true);
    },
    RACE_TEST_MS,
  );
});
