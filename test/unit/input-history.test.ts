/**
 * The input history across runs, on a real temporary state directory: what is kept, in which
 * order, how far it is bounded, and that secrets never reach the file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputHistory, MAX_INPUT_HISTORY } from '../../src/state/input-history.js';

let root: string;
let file: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-input-history-'));
  file = path.join(root, 'state', 'input-history');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('input history', () => {
  it('keeps lines across runs, oldest first, each once at its latest place', () => {
    const first = new InputHistory(file);
    expect(first.load()).toEqual([]);
    first.add('one');
    first.add('two');
    first.add('one');
    expect(new InputHistory(file).load()).toEqual(['two', 'one']);
  });

  it('keeps a pasted multi-line input whole, and leaves blank lines out', () => {
    const history = new InputHistory(file);
    history.add('line one\nline two');
    expect(history.add('   ')).toBe(false);
    expect(new InputHistory(file).load()).toEqual(['line one\nline two']);
  });

  it('is bounded: the file is compacted once it holds twice the bound, and loads the last lines', () => {
    const history = new InputHistory(file);
    history.load();
    for (let n = 0; n < 2 * MAX_INPUT_HISTORY + 1; n++) history.add(`line ${n}`);
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.length).toBe(MAX_INPUT_HISTORY);
    const loaded = new InputHistory(file).load();
    expect(loaded).toHaveLength(MAX_INPUT_HISTORY);
    expect(loaded.at(-1)).toBe(`line ${2 * MAX_INPUT_HISTORY}`);
  });

  it('the file is private (0600 in a 0700 directory)', () => {
    new InputHistory(file).add('hello');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
  });

  it('a damaged line is skipped, the rest is kept', () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '"good"\n{not json\n42\n"also good"\n"cut off');
    expect(new InputHistory(file).load()).toEqual(['good', 'also good']);
  });

  it('a history that cannot be written is not an error: the line is just not kept', () => {
    fs.mkdirSync(file, { recursive: true });
    const history = new InputHistory(file);
    expect(history.load()).toEqual([]);
    expect(history.add('hello')).toBe(false);
  });

  it('a huge paste is not kept', () => {
    expect(new InputHistory(file).add('x '.repeat(10_000))).toBe(false);
  });
});

describe('secrets in input history', () => {
  it('a line holding a token, a password or an Authorization value never reaches the file', () => {
    const history = new InputHistory(file);
    const secrets = [
      'ghp_0123456789abcdefABCDEF0123456789abcd',
      'use sk-proj-AbCdEf0123456789xyzXYZ please',
      'Authorization: Bearer abc123def456',
      'password=hunter22',
      'deadbeefdeadbeefdeadbeefdeadbeefdeadbeef',
    ];
    for (const secret of secrets) expect(history.add(secret)).toBe(false);
    history.add('an ordinary question');
    const text = fs.readFileSync(file, 'utf8');
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toContain('hunter22');
    expect(text).not.toContain('ghp_');
    expect(new InputHistory(file).load()).toEqual(['an ordinary question']);
  });

  it('a secret already in the file (written by an older version) is not recalled', () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify('token=abcdef123')}\n${JSON.stringify('fine')}\n`);
    expect(new InputHistory(file).load()).toEqual(['fine']);
  });
});
