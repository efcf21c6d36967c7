/**
 * The session store on a real temporary directory: save, load, list, delete, `latest`; damaged
 * and newer-format files are errors that name the file; names that try to leave the directory are
 * refused. (Processes saving one session at once: test/integration/session-writers.test.ts.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SESSION_FORMAT, type SavedSession, SessionFileError, parseSession } from '../../src/state/session-file.js';
import { SessionStore } from '../../src/state/session-store.js';
import { McpChatError, UsageError } from '../../src/shared/errors.js';

let root: string;
let store: SessionStore;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-sessions-')));
  store = new SessionStore(path.join(root, 'sessions'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function session(name: string, overrides: Partial<SavedSession> = {}): SavedSession {
  return {
    format: SESSION_FORMAT,
    name,
    model: 'llama3.2',
    createdAt: '2025-01-01T10:00:00.000Z',
    updatedAt: '2025-01-01T10:05:00.000Z',
    turns: 1,
    title: 'What is 2+2?',
    messages: [
      { role: 'user', content: 'What is 2+2?' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ name: 'calculator__evaluate', arguments: { expression: '2+2' }, id: 'c1' }],
      },
      { role: 'tool', content: '4', toolName: 'calculator__evaluate' },
      { role: 'assistant', content: '2+2 is 4.' },
    ],
    screen: [
      { type: 'user', text: 'What is 2+2?' },
      {
        type: 'tool',
        call: { server: 'calculator', tool: 'evaluate', arguments: { expression: '2+2' } },
        result: { isError: false, forModel: '4', durationMs: 3 },
      },
      { type: 'assistant', text: '2+2 is 4.' },
    ],
    ...overrides,
  };
}

describe('session store', () => {
  it('saves and loads a session whole: model, messages with tool calls and results, screen', () => {
    const saved = session('demo');
    store.save(saved);
    expect(store.load('demo')).toEqual(saved);
    expect(store.exists('demo')).toBe(true);
  });

  it('writes the file 0600 in a 0700 directory: a conversation is private', () => {
    store.save(session('demo'));
    expect(fs.statSync(store.file('demo')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(store.dir).mode & 0o777).toBe(0o700);
  });

  it('a native call whose arguments were not an object comes back as such', () => {
    const saved = session('odd', {
      messages: [{ role: 'assistant', content: '', toolCalls: [{ name: 'x__y', arguments: undefined }] }],
    });
    store.save(saved);
    const [message] = store.load('odd').messages;
    expect(message).toEqual({ role: 'assistant', content: '', toolCalls: [{ name: 'x__y', arguments: undefined }] });
  });

  it('lists sessions newest first, with name, date, model, first line and turns', () => {
    store.save(session('older', { updatedAt: '2025-01-01T09:00:00.000Z', turns: 3 }));
    store.save(session('newer', { updatedAt: '2025-01-02T09:00:00.000Z', model: 'qwen3', title: 'Hello' }));
    const { sessions, problems } = store.list();
    expect(problems).toEqual([]);
    expect(sessions).toEqual([
      {
        name: 'newer',
        model: 'qwen3',
        createdAt: '2025-01-01T10:00:00.000Z',
        updatedAt: '2025-01-02T09:00:00.000Z',
        turns: 1,
        title: 'Hello',
      },
      expect.objectContaining({ name: 'older', turns: 3 }),
    ]);
  });

  it('an empty or missing directory lists nothing', () => {
    expect(store.list()).toEqual({ sessions: [], problems: [] });
  });

  it('`latest` is the session written last', () => {
    store.save(session('first'));
    store.save(session('second'));
    const past = new Date('2020-01-01T00:00:00Z');
    fs.utimesSync(store.file('second'), past, past);
    expect(store.load('latest').name).toBe('first');
  });

  it('`latest` with nothing saved, and a name never saved, are errors that say so', () => {
    expect(() => store.load('latest')).toThrow('no saved sessions yet');
    expect(() => store.load('nothing-here')).toThrow('no session named nothing-here');
  });

  it('deletes a session; deleting one that is not there says so', () => {
    store.save(session('demo'));
    expect(store.delete('demo')).toBe(true);
    expect(store.exists('demo')).toBe(false);
    expect(store.delete('demo')).toBe(false);
  });

  it('a truncated file is an error naming the file, and is listed as a problem', () => {
    store.save(session('good'));
    const text = fs.readFileSync(store.file('good'), 'utf8');
    fs.writeFileSync(path.join(store.dir, 'cut.json'), text.slice(0, text.length / 2));
    expect(() => store.load('cut')).toThrow(SessionFileError);
    expect(() => store.load('cut')).toThrow(`session file ${path.join(store.dir, 'cut.json')} is damaged`);
    const { sessions, problems } = store.list();
    expect(sessions.map((s) => s.name)).toEqual(['good']);
    expect(problems).toEqual([{ name: 'cut', message: expect.stringContaining('cut.json is damaged') }]);
  });

  it('valid JSON of the wrong shape is damaged, and the error says where', () => {
    fs.mkdirSync(store.dir, { recursive: true });
    const bad = { ...session('bad'), messages: [{ role: 'wizard', content: 'x' }] };
    fs.writeFileSync(store.file('bad'), JSON.stringify(bad));
    expect(() => store.load('bad')).toThrow(/bad\.json is damaged \(.*at messages\.0/);
  });

  it('a file from a newer mcp-chat is refused as newer, not as damaged, even when its shape changed', () => {
    fs.mkdirSync(store.dir, { recursive: true });
    fs.writeFileSync(store.file('future'), JSON.stringify({ format: SESSION_FORMAT + 1, everything: 'different' }));
    expect(() => store.load('future')).toThrow(
      `was written by a newer mcp-chat (format ${SESSION_FORMAT + 1}; this one reads format ${SESSION_FORMAT})`,
    );
  });

  it('a session file error is a runtime failure (exit 1) with a hint', () => {
    try {
      parseSession('{', '/x/y.json');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(McpChatError);
      expect((error as McpChatError).exitCode).toBe(1);
      expect((error as McpChatError).hint).toContain('/delete');
    }
  });

  it('files that are not sessions (temporary files, other names) are not listed', () => {
    store.save(session('demo'));
    fs.writeFileSync(path.join(store.dir, '.demo.json.123.tmp'), 'partial');
    fs.writeFileSync(path.join(store.dir, 'notes.txt'), 'hello');
    expect(store.list().sessions.map((s) => s.name)).toEqual(['demo']);
  });
});

describe('path traversal in a session name', () => {
  const attacks = [
    '../escaped',
    '../../etc/passwd',
    '..',
    '.',
    'a/../../b',
    'a/b',
    '/etc/passwd',
    'a\\b',
    '..\\windows',
    '.hidden',
    'x..y',
    'name\u0000.json',
    'new\nline',
    '',
    'latest',
    'a'.repeat(65),
  ];

  it.each(attacks)('refuses %j for every operation, and writes nothing outside the directory', (name) => {
    expect(() => store.file(name)).toThrow(UsageError);
    expect(() => store.save(session(name))).toThrow(UsageError);
    expect(() => store.load(name === 'latest' ? 'x/y' : name)).toThrow(UsageError);
    expect(() => store.delete(name)).toThrow(UsageError);
    expect(fs.readdirSync(root)).toEqual([]);
  });

  it('a symlink planted as a session file is read as a file in the directory, never followed for writing elsewhere', () => {
    fs.mkdirSync(store.dir, { recursive: true });
    const outside = path.join(root, 'outside.txt');
    fs.writeFileSync(outside, 'do not touch');
    fs.symlinkSync(outside, store.file('planted'));
    store.save(session('planted'));
    // The atomic rename replaces the link itself: the file it pointed to is untouched.
    expect(fs.readFileSync(outside, 'utf8')).toBe('do not touch');
    expect(fs.lstatSync(store.file('planted')).isSymbolicLink()).toBe(false);
  });
});

describe('saves of one session', () => {
  it('SessionStore.save itself, from two sessions at once, leaves one of the two whole', () => {
    const a = session('same', { title: 'A', messages: [{ role: 'user', content: 'a'.repeat(100_000) }] });
    const b = session('same', { title: 'B', messages: [{ role: 'user', content: 'b' }] });
    new SessionStore(store.dir).save(a);
    new SessionStore(store.dir).save(b);
    expect(store.load('same')).toEqual(b);
    expect(fs.readdirSync(store.dir)).toEqual(['same.json']);
  });
});
