/**
 * mcp-chat's own log (`openLogger`) on real files: rotated by size, a bounded number
 * of files kept, and the configured path a link to the file being written.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dropTornLastLine } from '../../src/shared/log-rotation.js';
import { openLogger } from '../../src/shared/log.js';

let dir: string;
let file: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-log-'));
  file = path.join(dir, 'logs', 'mcp-chat.log');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The numbered files written beside the link, oldest first. */
function numbered(): string[] {
  const number = (name: string): number => Number(name.split('.')[1]);
  return fs
    .readdirSync(path.dirname(file))
    .filter((name) => /^mcp-chat\.\d+\.log$/.test(name))
    .sort((a, b) => number(a) - number(b));
}

describe('the rotated log', () => {
  it('a log that reaches its size limit goes on in a new file; only the newest `files` are kept', () => {
    const log = openLogger({ level: 'info', file, maxBytes: 1024, files: 3 });
    for (let line = 0; line < 40; line++) {
      log.info({ line }, 'x'.repeat(200));
    }
    log.info('the last line, with Bearer abcdefghijklmnopqrstuvwxyz');
    const files = numbered();
    expect(files).toHaveLength(3);
    // About 10 kB went through 1 kB files: the first ones were deleted, not kept.
    expect(Number(files[0]?.split('.')[1])).toBeGreaterThan(3);
    expect(fs.readlinkSync(file)).toBe(files[2]);
    const live = fs.readFileSync(file, 'utf8');
    expect(live).toContain('the last line, with Bearer [REDACTED]');
    expect(live).not.toContain('abcdefghijklmnop');
  });

  it('a later run goes on in the newest file and keeps the bound over the files earlier runs left', () => {
    fs.mkdirSync(path.dirname(file));
    for (const number of [1, 2, 7, 8, 9])
      fs.writeFileSync(path.join(path.dirname(file), `mcp-chat.${number}.log`), `run ${number}\n`);
    const log = openLogger({ level: 'info', file, files: 3 });
    log.info('this run');
    expect(numbered()).toEqual(['mcp-chat.7.log', 'mcp-chat.8.log', 'mcp-chat.9.log']);
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^run 9\n.*"msg":"this run"/s);
  });

  it('log readable by other users: a new log and an older 0644 one are 0600, in a folder of the owner', () => {
    const older = path.join(dir, 'older', 'mcp-chat.log');
    fs.mkdirSync(path.dirname(older));
    fs.writeFileSync(path.join(path.dirname(older), 'mcp-chat.1.log'), 'an older run\n', { mode: 0o644 });
    openLogger({ level: 'info', file: older }).info('secret-ish');
    openLogger({ level: 'info', file }).info('fresh');
    const mode = (target: string): number => fs.statSync(target).mode & 0o777;
    expect(mode(path.join(path.dirname(older), 'mcp-chat.1.log'))).toBe(0o600);
    expect(mode(path.join(path.dirname(file), 'mcp-chat.1.log'))).toBe(0o600);
    expect(mode(path.dirname(file))).toBe(0o700);
  });

  it('a log written before rotation at the configured path is moved to .old, not replaced by the link', () => {
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, 'a line from an older mcp-chat\n', { mode: 0o644 });
    const log = openLogger({ level: 'info', file });
    log.info('a new run');
    expect(fs.readFileSync(`${file}.old`, 'utf8')).toBe('a line from an older mcp-chat\n');
    expect(fs.statSync(`${file}.old`).mode & 0o777).toBe(0o600);
    expect(fs.lstatSync(file).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(file, 'utf8')).toContain('"msg":"a new run"');
  });

  it('a directory where the link belongs: the log is still written, and says why the link is missing', () => {
    fs.mkdirSync(file, { recursive: true });
    const log = openLogger({ level: 'info', file });
    log.info('still logged');
    const [written] = numbered();
    const text = fs.readFileSync(path.join(path.dirname(file), written ?? 'none'), 'utf8');
    expect(text).toContain('the log file link could not be placed');
    expect(text).toContain('"msg":"still logged"');
    expect(fs.readdirSync(path.dirname(file)).filter((name) => name.endsWith('.link'))).toEqual([]);
  });

  it('a line torn by a kill mid-write is cut off when the log is next opened, so the next run starts on a line of its own', () => {
    const first = openLogger({ level: 'info', file });
    first.info('a whole line');
    // What a SIGKILL between two pages of a write leaves: the start of a record, no newline.
    fs.appendFileSync(file, '{"level":30,"time":1,"msg":"cut sh');
    const next = openLogger({ level: 'info', file });
    next.info('the next run');
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(['a whole line', 'the next run']);
  });
});

describe('dropTornLastLine', () => {
  it.each([
    ['a whole log', 'a\nb\n', 'a\nb\n'],
    ['a torn last line', 'a\nb\n{"cut', 'a\nb\n'],
    ['only a torn line', '{"cut', ''],
    ['an empty file', '', ''],
  ])('%s', (_name, text, kept) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    dropTornLastLine(file);
    expect(fs.readFileSync(file, 'utf8')).toBe(kept);
  });

  it('finds the last whole line further back than one read (a torn line longer than 64 KB)', () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `first\n${'x'.repeat(200_000)}`);
    dropTornLastLine(file);
    expect(fs.readFileSync(file, 'utf8')).toBe('first\n');
  });

  it('a file not written yet is left alone', () => {
    expect(() => dropTornLastLine(path.join(dir, 'none.log'))).not.toThrow();
    expect(fs.existsSync(path.join(dir, 'none.log'))).toBe(false);
  });
});
