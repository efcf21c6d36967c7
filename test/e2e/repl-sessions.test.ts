/**
 * Sessions and input history across runs of the REPL, as a person sees them (tmux, the built
 * binary, the fake Ollama, the calculator): a chat is saved as it goes; after quitting,
 * `mcp-chat --resume latest` shows the earlier conversation and the next request carries it;
 * ↑ recalls a line typed in the run before, Ctrl+R finds one, and a secret typed then is not kept.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { REPO_ROOT } from '../helpers/server-configs.js';
import { SCREEN_WAIT, useReplSession } from '../helpers/repl-session.js';
import { TmuxPane } from '../helpers/tmux.js';

const CALCULATOR = path.join(REPO_ROOT, 'dist/servers/calculator/main.js');
const SECRET = 'ghp_0123456789abcdefABCDEF0123456789abcd';
const textCall = (expression: string): string =>
  JSON.stringify({ action: 'use_tool', server: 'calculator', tool: 'evaluate', arguments: { expression } });

const stateHome = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-repl-state-')));
afterAll(() => fs.rmSync(stateHome, { recursive: true, force: true }));
const sessionsDir = path.join(stateHome, 'mcp-chat', 'sessions');

describe.skipIf(!TmuxPane.available())('sessions and input history in the REPL', () => {
  const repl = useReplSession({
    config: { mcpServers: { calculator: { command: 'node', args: [CALCULATOR], alwaysAllow: ['evaluate'] } } },
    env: { XDG_STATE_HOME: stateHome },
  });
  /** The messages of the last request that reached the model. */
  const lastSent = () => repl.ollama.chatRequests.filter((request) => request.messages.length > 0).at(-1)?.messages;

  it('the first run: a conversation with a tool call is saved after each turn', async () => {
    await repl.shows('ready');
    repl.ollama.script(textCall('6*7'), 'It is 42.');
    repl.pane.type('What is 6*7?', 'Enter');
    await repl.shows('It is 42.');
    repl.ollama.script('Noted: pineapple.');
    repl.pane.type('remember the word pineapple', 'Enter');
    await repl.shows('Noted: pineapple.');
    repl.ollama.script('Please do not paste tokens here.');
    repl.pane.type(`my token is ${SECRET}`, 'Enter');
    await repl.shows('Please do not paste tokens here.');
    await vi.waitFor(() => {
      const [file] = fs.readdirSync(sessionsDir);
      const saved = JSON.parse(fs.readFileSync(path.join(sessionsDir, file ?? ''), 'utf8')) as { turns: number };
      expect(saved.turns).toBe(3);
    }, SCREEN_WAIT);
    repl.pane.type('', 'C-d');
    await vi.waitFor(() => expect(repl.pane.exited()).toBe(true), SCREEN_WAIT);
  });

  it('--resume latest shows the earlier conversation, tool line included', async () => {
    repl.restart(['--resume', 'latest']);
    await repl.shows('Resumed session ');
    await repl.shows('ready');
    const screen = repl.pane.screen();
    expect(screen).toContain('› What is 6*7?');
    expect(screen).toMatch(/✓ calculator\.evaluate\(expression="6\*7"\).*→ 42/);
    expect(screen).toContain('It is 42.');
    expect(screen).toContain('Noted: pineapple.');
  });

  it('↑ recalls the last line typed in the run before (not the secret, which was never kept)', async () => {
    repl.pane.type('', 'Up');
    await repl.pane.waitForScreen(/ready[^\n]*\n› remember the word pineapple/);
    repl.pane.type('', 'C-u');
    const history = fs.readFileSync(path.join(stateHome, 'mcp-chat', 'input-history'), 'utf8');
    expect(history).toContain('remember the word pineapple');
    expect(history).not.toContain(SECRET);
  });

  it('Ctrl+R finds an earlier line; Enter takes it onto the line; a secret is not found', async () => {
    repl.pane.type('', 'C-r');
    await repl.shows('search "" ›');
    repl.pane.type('6*7');
    await repl.pane.waitForScreen(/search "6\*7" › What is 6\*7\?/);
    repl.pane.type('', 'Enter');
    await repl.pane.waitForScreen(/ready[^\n]*\n› What is 6\*7\?/);
    // Ctrl+U and Ctrl+R in one go, as a fast typist sends them: the line is cleared, then searched.
    repl.pane.type('', 'C-u', 'C-r');
    await repl.pane.waitForScreen(/search "" ›\s*\n/);
    repl.pane.type('ghp_');
    await repl.shows('no earlier input has "ghp_"');
    repl.pane.type('', 'Escape');
    await vi.waitFor(() => expect(repl.pane.screen()).not.toContain('search "ghp_"'), SCREEN_WAIT);
  });

  it('the next request carries the resumed conversation, and the session goes on being saved', async () => {
    repl.ollama.script('You asked what 6*7 is.');
    repl.pane.type('What did I ask first?', 'Enter');
    await repl.shows('You asked what 6*7 is.');
    const contents = (lastSent() ?? []).map((message) => message.content);
    expect(contents).toContain('What is 6*7?');
    expect(contents).toContain('It is 42.');
    expect(contents).toContain('remember the word pineapple');
    expect(contents.at(-1)).toBe('What did I ask first?');
    await vi.waitFor(() => {
      const files = fs.readdirSync(sessionsDir);
      expect(files).toHaveLength(1);
      const saved = JSON.parse(fs.readFileSync(path.join(sessionsDir, files[0] ?? ''), 'utf8')) as { turns: number };
      expect(saved.turns).toBe(4);
    }, SCREEN_WAIT);
  });

  it('/sessions lists it, /save names it, /export writes it as markdown', async () => {
    repl.pane.type('/save pineapple-chat', 'Enter');
    await repl.shows('Saved as pineapple-chat (4 turns)');
    repl.pane.type('/sessions', 'Enter');
    await repl.pane.waitForScreen(/\* pineapple-chat .* llama3\.2 +4 turns +What is 6\*7\?/);
    repl.pane.type('/export chat.md', 'Enter');
    await repl.shows(`Exported session pineapple-chat to ${path.join(repl.workDir, 'chat.md')}`);
    const markdown = fs.readFileSync(path.join(repl.workDir, 'chat.md'), 'utf8');
    expect(markdown).toContain('## You\n\nWhat is 6*7?');
    expect(markdown).toContain('## Assistant\n\nYou asked what 6*7 is.');
  });

  it('/resume of a damaged session is a clear line, and the chat goes on', async () => {
    fs.writeFileSync(path.join(sessionsDir, 'broken.json'), '{"format":1,"name":');
    repl.pane.type('/resume broken', 'Enter');
    await repl.shows(`session file ${path.join(sessionsDir, 'broken.json')} is damaged`);
    repl.ollama.script('Still here.');
    repl.pane.type('Are you there?', 'Enter');
    await repl.shows('Still here.');
  });
});
