/**
 * The REPL started in a cloned repository that holds `mcp_config.json` and `.env`, in a real
 * terminal (tmux): it shows what the config would run and asks before starting anything; keys
 * typed before the question answer nothing; `n` falls back to the shipped config and says so;
 * `y` starts the servers and is remembered, so the next start does not ask.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeOllama, type FakeOllama } from '../fakes/fake-ollama.js';
import { SCREEN_WAIT } from '../helpers/repl-session.js';
import { CLI, cleanEnv } from '../helpers/run-cli.js';
import { descendants, REPO_ROOT } from '../helpers/server-configs.js';
import { TmuxPane } from '../helpers/tmux.js';

const CALCULATOR = path.join(REPO_ROOT, 'dist/servers/calculator/main.js');

describe.skipIf(!TmuxPane.available())('the REPL in a directory with an untrusted mcp_config.json', () => {
  let ollama: FakeOllama;
  let root: string;
  let repo: string;
  let trustFile: string;
  const panes: TmuxPane[] = [];

  beforeAll(async () => {
    ollama = await startFakeOllama({ models: [{ name: 'llama3.2', capabilities: ['completion'] }] });
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-repl-trust-')));
    repo = path.join(root, 'cloned-repo');
    fs.mkdirSync(repo);
    trustFile = path.join(root, 'state', 'mcp-chat', 'trusted.json');
    const config = { mcpServers: { calc: { command: process.execPath, args: [CALCULATOR] } } };
    fs.writeFileSync(path.join(repo, 'mcp_config.json'), JSON.stringify(config));
    fs.writeFileSync(path.join(repo, '.env'), 'REPO_VAR=from-the-repository\n');
  });

  afterAll(async () => {
    for (const pane of panes) pane.kill();
    await ollama.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  function start(): TmuxPane {
    const pane = new TmuxPane();
    panes.push(pane);
    const env = cleanEnv({
      HOME: path.join(root, 'home'),
      XDG_STATE_HOME: path.join(root, 'state'),
      OLLAMA_HOST: ollama.url,
      TERM: 'xterm-256color',
      MCP_CHAT_LOG_FILE: path.join(root, 'log.jsonl'),
    });
    pane.start([process.execPath, CLI], { cwd: repo, env, width: 220 });
    return pane;
  }

  async function quit(pane: TmuxPane): Promise<void> {
    pane.type('quit', 'Enter');
    await vi.waitFor(() => expect(pane.exited()).toBe(true), SCREEN_WAIT);
  }

  it('shows what the config would run and asks before starting anything; keys typed ahead answer nothing; n falls back and says so', async () => {
    const pane = start();
    // Typed before the question can be drawn (node has not even started): it must not answer it.
    pane.type('y', 'Enter');
    await pane.waitForScreen(/Trust the files in .*cloned-repo\?/);
    await pane.waitForScreen(/\[y\] trust .*\[n\] do not: use the shipped configuration/);
    const question = pane.screen();
    expect(question).toContain(`${repo}/mcp_config.json:`);
    expect(question).toContain(`calc: runs ${process.execPath} ${CALCULATOR}`);
    expect(question).toContain(`${repo}/.env: sets REPO_VAR`);
    expect(fs.existsSync(trustFile)).toBe(false);
    expect(descendants(pane.panePid())).toEqual([]);

    pane.type('n');
    await pane.waitForScreen(
      /notice: not using .*cloned-repo\/mcp_config\.json \(not trusted\); using the shipped configuration .*mcp_config\.json instead/,
    );
    await pane.waitForScreen(/calculator ✓ 1.*file ✓ 5.*research ✓ 2.*ready/s);
    const screen = pane.screen();
    expect(screen).toMatch(/notice: .*cloned-repo\/\.env was not loaded: it is not trusted; run `mcp-chat trust`/);
    expect(screen).not.toMatch(/calc ✓/);
    expect(fs.existsSync(trustFile)).toBe(false);
    await quit(pane);
  });

  it('y trusts the config and .env, starts its servers, and remembers the answer', async () => {
    const pane = start();
    await pane.waitForScreen(/\[y\] trust/);
    pane.type('y');
    await pane.waitForScreen(/Trusted\./);
    await pane.waitForScreen(/calc ✓ 1.*ready/s);
    expect(pane.screen()).not.toContain('was not loaded');
    const remembered = Object.keys((JSON.parse(fs.readFileSync(trustFile, 'utf8')) as { files: object }).files);
    expect(remembered.sort()).toEqual([path.join(repo, '.env'), path.join(repo, 'mcp_config.json')]);
    await quit(pane);
  });

  it('a second start does not ask, and uses the remembered answer as it is', async () => {
    const remembered = fs.readFileSync(trustFile, 'utf8');
    const pane = start();
    await pane.waitForScreen(/calc ✓ 1.*ready/s);
    const screen = pane.screen();
    expect(screen).not.toContain('Trust the files');
    expect(screen).not.toContain('notice:');
    expect(fs.readFileSync(trustFile, 'utf8')).toBe(remembered);
    await quit(pane);
  });
});
