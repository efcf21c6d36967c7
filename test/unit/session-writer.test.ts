/**
 * Background saves: each write is whole and private; saves of one file that wait behind a write
 * are folded into the latest; a failed write rejects its own promise and never goes unhandled.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionWriter } from '../../src/state/session-writer.js';
import { writeFileAtomicAsync } from '../../src/shared/atomic-write.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-session-writer-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('session writer', () => {
  it('writes atomically, 0600 in a 0700 directory, leaving no temporary file', async () => {
    const file = path.join(dir, 'sessions', 'a.json');
    await writeFileAtomicAsync(file, 'hello');
    expect(fs.readFileSync(file, 'utf8')).toBe('hello');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['a.json']);
  });

  it('saves that wait behind a write are folded into the latest; every promise resolves once it is on disk', async () => {
    const writer = new SessionWriter();
    const file = path.join(dir, 's.json');
    const first = writer.write(file, 'one');
    const second = writer.write(file, 'two');
    const third = writer.write(file, 'three');
    expect(third).toBe(second);
    await Promise.all([first, second, third]);
    expect(fs.readFileSync(file, 'utf8')).toBe('three');
  });

  it('flush waits for every write asked for, of every file', async () => {
    const writer = new SessionWriter();
    for (let n = 0; n < 5; n++) void writer.write(path.join(dir, `${n}.json`), `${n}`);
    await writer.flush();
    expect(fs.readdirSync(dir).sort()).toEqual(['0.json', '1.json', '2.json', '3.json', '4.json']);
  });

  it('a write that fails rejects its promise, the next write still happens, and nothing is left behind', async () => {
    const writer = new SessionWriter();
    const blocked = path.join(dir, 'blocked');
    fs.mkdirSync(path.join(blocked, 'x.json'), { recursive: true });
    const failed = writer.write(path.join(blocked, 'x.json'), 'x');
    const fine = writer.write(path.join(dir, 'fine.json'), 'ok');
    await expect(failed).rejects.toThrow();
    await fine;
    expect(fs.readFileSync(path.join(dir, 'fine.json'), 'utf8')).toBe('ok');
    expect(fs.readdirSync(blocked)).toEqual(['x.json']);
  });

  it('a failure nobody waits for is not an unhandled rejection', async () => {
    const writer = new SessionWriter();
    const unhandled: unknown[] = [];
    const listener = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      fs.mkdirSync(path.join(dir, 'taken.json'));
      void writer.write(path.join(dir, 'taken.json'), 'x');
      await writer.flush();
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });
});
