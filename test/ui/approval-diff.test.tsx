/**
 * A write to a file over the real file server: before it is allowed, the approval question shows
 * what it would change, read from the file through the same server, and nothing is written until
 * the user allows it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { McpHost } from '../../src/mcp/host.js';
import { silentLogger } from '../../src/shared/log.js';
import { builtServer } from '../helpers/server-configs.js';

// The colours are checked; these tests' stdout is a pipe, where chalk would style nothing.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});

const { cleanup } = await import('ink-testing-library');
const { KEY, startApp, TestLlm, useTool } = await import('./render-app.js');

const ESC = '\u001b';

describe('silent overwrite', () => {
  let root: string;
  let host: McpHost;

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'approval-diff-'));
    host = new McpHost([builtServer('file', [root])], { log: silentLogger });
    await host.start();
  });

  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  afterAll(async () => {
    await host.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('silent overwrite: a write_file to an existing file shows a diff against its current content before it is allowed', async () => {
    const file = path.join(root, 'settings.conf');
    const current = 'mode = safe\nbackup = daily\nowner = me\n';
    fs.writeFileSync(file, current);
    const calls = vi.spyOn(host, 'callTool');
    const next = 'mode = safe\nbackup = never\nowner = me\n';
    const llm = new TestLlm([useTool('file', 'write_file', { path: 'settings.conf', content: next }), 'Changed.']);
    const app = await startApp({ host, llm });
    app.send('Turn the backups off');
    await app.waitForScreen('[y] allow once');
    const screen = app.screen();
    expect(screen).toContain('content: the change to settings.conf, against its current content:');
    expect(screen).toMatch(/-backup = daily[\s│]*\+backup = never/);
    expect(screen).not.toContain('first line');
    // Removed lines red, added lines green.
    const frame = app.ui.lastFrame() ?? '';
    expect(frame).toContain(`${ESC}[31m    -backup = daily`);
    expect(frame).toContain(`${ESC}[32m    +backup = never`);
    // The current content came through the server's own read tool; the write has not run.
    expect(calls.mock.calls.map(([call]) => [call.tool, call.arguments.path])).toEqual([
      ['read_file', 'settings.conf'],
    ]);
    expect(fs.readFileSync(file, 'utf8')).toBe(current);
    app.press('y', KEY.enter);
    await app.waitForAnswer('Changed.');
    expect(fs.readFileSync(file, 'utf8')).toBe(next);
  });

  it('silent overwrite: a write_file to a file that does not exist says it makes a new file', async () => {
    const llm = new TestLlm([useTool('file', 'write_file', { path: 'fresh.txt', content: 'hello' }), 'Not written.']);
    const app = await startApp({ host, llm });
    app.send('Write fresh.txt');
    await app.waitForScreen('[y] allow once');
    expect(app.screen().replace(/[\s│]+/g, ' ')).toMatch(
      /path: "fresh\.txt" content: "hello" new file \(reading it said: [^)]*\)/,
    );
    app.press('n');
    await app.waitForAnswer('Not written.');
    expect(fs.existsSync(path.join(root, 'fresh.txt'))).toBe(false);
  });
});
