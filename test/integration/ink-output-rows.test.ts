/**
 * The bundle's Ink draws a frame's text row by row from a cache (scripts/ink-caches.mjs replaces
 * Output's `get`). Checked against Ink's own Output on random frames: writes of styled, wide and
 * multi-line text anywhere in and around the frame, nested clips, line transformers, and the
 * same rows written again (as a streamed reply's lines move up), which the cache must serve.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/server-configs.js';

interface Clip {
  x1?: number;
  x2?: number;
  y1?: number;
  y2?: number;
}
interface InkOutput {
  write(
    x: number,
    y: number,
    text: string,
    options: { transformers: Array<(line: string, index: number) => string> },
  ): void;
  clip(clip: Clip): void;
  unclip(): void;
  get(): { output: string; height: number };
}
type OutputClass = new (size: { width: number; height: number }) => InkOutput;

/** A small seeded generator (mulberry32): a failing frame can be made again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'plain',
  'words',
  '漢字',
  '🙂ok',
  'a',
  'longerwordhere',
  '\u001b[31mred\u001b[39m',
  '\u001b[1mbold\u001b[22m',
];

type Operation =
  | { type: 'write'; x: number; y: number; text: string; numbered: boolean }
  | { type: 'clip'; clip: Clip }
  | { type: 'unclip' };

function randomFrame(next: () => number, width: number, height: number): Operation[] {
  const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)] as T;
  const between = (low: number, high: number): number => low + Math.floor(next() * (high - low + 1));
  const operations: Operation[] = [];
  let open = 0;
  for (let count = between(1, 8); count > 0; count--) {
    const roll = next();
    if (roll < 0.15) {
      const clip: Clip = {};
      if (next() < 0.7) Object.assign(clip, { x1: between(-2, width), x2: between(0, width + 2) });
      if (next() < 0.7) Object.assign(clip, { y1: between(-2, height), y2: between(0, height + 2) });
      operations.push({ type: 'clip', clip });
      open++;
    } else if (roll < 0.25 && open > 0) {
      operations.push({ type: 'unclip' });
      open--;
    } else {
      const lines = Array.from({ length: between(1, 4) }, () =>
        Array.from({ length: between(0, 5) }, () => pick(WORDS)).join(' '),
      );
      operations.push({
        type: 'write',
        x: between(-3, width + 2),
        y: between(-2, height + 1),
        text: lines.join('\n'),
        numbered: next() < 0.2,
      });
    }
  }
  return operations;
}

function draw(Output: OutputClass, width: number, height: number, operations: Operation[]): string {
  const output = new Output({ width, height });
  for (const operation of operations) {
    if (operation.type === 'clip') output.clip(operation.clip);
    else if (operation.type === 'unclip') output.unclip();
    else
      output.write(operation.x, operation.y, operation.text, {
        transformers: operation.numbered ? [(line, index) => `${index}│${line}`] : [],
      });
  }
  return JSON.stringify(output.get());
}

let directory: string;
let inkOutput: OutputClass;
let bundledOutput: OutputClass;

beforeAll(async () => {
  directory = fs.mkdtempSync(path.join(os.tmpdir(), 'ink-output-'));
  const { inkCaches } = (await import(pathToFileURL(path.join(REPO_ROOT, 'scripts/ink-caches.mjs')).href)) as {
    inkCaches: Plugin;
  };
  const source = path.join(REPO_ROOT, 'node_modules/ink/build/output.js');
  const outfile = path.join(directory, 'output.mjs');
  await build({
    entryPoints: [source],
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile,
    plugins: [inkCaches],
    logLevel: 'silent',
  });
  inkOutput = ((await import(pathToFileURL(source).href)) as { default: OutputClass }).default;
  bundledOutput = ((await import(pathToFileURL(outfile).href)) as { default: OutputClass }).default;
});

afterAll(() => fs.rmSync(directory, { recursive: true, force: true }));

describe('the bundled Ink Output, drawn row by row', () => {
  it('gives the same text as Ink’s own on 3,000 random frames, each drawn twice (the second from the cache)', () => {
    const next = random(21);
    for (let frame = 0; frame < 3000; frame++) {
      const width = 5 + Math.floor(next() * 40);
      const height = 1 + Math.floor(next() * 8);
      const operations = randomFrame(next, width, height);
      const expected = draw(inkOutput, width, height, operations);
      expect({ frame, text: draw(bundledOutput, width, height, operations) }).toEqual({ frame, text: expected });
      expect({ frame, text: draw(bundledOutput, width, height, operations) }).toEqual({ frame, text: expected });
    }
  });

  it('lines moving up a row at a time, as a streamed reply’s do, come out as Ink draws them', () => {
    const lines = Array.from(
      { length: 40 },
      (_, index) => `line ${index} \u001b[32m${'x'.repeat(index % 13)}\u001b[39m`,
    );
    for (let top = 0; top < 30; top++) {
      const operations: Operation[] = [
        { type: 'write', x: 0, y: 0, text: lines.slice(top, top + 10).join('\n'), numbered: false },
        { type: 'write', x: 2, y: 11, text: 'status ✓ ready', numbered: false },
      ];
      expect(draw(bundledOutput, 30, 12, operations)).toBe(draw(inkOutput, 30, 12, operations));
    }
  });
});
