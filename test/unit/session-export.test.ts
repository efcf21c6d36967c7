/** `/export`: markdown for people, JSON as the session file; never over an existing file. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportSession, sessionMarkdown } from '../../src/state/session-export.js';
import { parseSession, type SavedSession } from '../../src/state/session-file.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-export-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const saved: SavedSession = {
  format: 1,
  name: 'demo',
  model: 'llama3.2',
  createdAt: '2025-01-01T10:00:00.000Z',
  updatedAt: '2025-01-01T10:05:00.000Z',
  turns: 1,
  title: 'Show me the file',
  messages: [{ role: 'user', content: 'Show me the file' }],
  screen: [
    { type: 'user', text: 'Show me the file' },
    {
      type: 'tool',
      call: { server: 'file', tool: 'read_file', arguments: { path: 'a.md' } },
      result: { isError: false, forModel: 'text with ``` fences ````', durationMs: 2 },
    },
    { type: 'assistant', text: 'It has **fences**.' },
    { type: 'error', text: 'Something failed', hint: 'Try again.' },
  ],
};

describe('session export', () => {
  it('markdown: who said what, each tool call with its result fenced so the result cannot close the fence', () => {
    const markdown = sessionMarkdown(saved);
    expect(markdown).toContain('# mcp-chat session demo');
    expect(markdown).toContain('## You\n\nShow me the file');
    expect(markdown).toContain('✓ file.read_file({"path":"a.md"}) 2 ms\n\n`````\ntext with ``` fences ````\n`````');
    expect(markdown).toContain('## Assistant\n\nIt has **fences**.');
    expect(markdown).toContain('> ✗ Something failed\n> Try again.');
  });

  it('json: the session file itself, readable again', () => {
    const file = exportSession(saved, 'out.json', dir);
    expect(file).toBe(path.join(dir, 'out.json'));
    expect(parseSession(fs.readFileSync(file, 'utf8'), file)).toEqual(saved);
  });

  it('refuses another extension, and an existing file', () => {
    expect(() => exportSession(saved, 'out.txt', dir)).toThrow('export to a .md or .json file');
    fs.writeFileSync(path.join(dir, 'taken.md'), 'mine');
    expect(() => exportSession(saved, 'taken.md', dir)).toThrow('exists already');
    expect(fs.readFileSync(path.join(dir, 'taken.md'), 'utf8')).toBe('mine');
  });
});
