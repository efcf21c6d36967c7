/**
 * What runs must be what was trusted, in the REPL (tmux, the built binary, the fake Ollama): a
 * config swapped while the trust question is on screen does not run; under `--trust` an edit that
 * would start a new command is refused; a trusted `.env` that names a config says it is not used.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startFakeOllama, type FakeOllama } from '../fakes/fake-ollama.js';
import { SCREEN_WAIT } from '../helpers/repl-session.js';
import { CLI, cleanEnv, runCli } from '../helpers/run-cli.js';
import { REPO_ROOT } from '../helpers/server-configs.js';
import { TmuxPane } from '../helpers/tmux.js';

const CALCULATOR = path.join(REPO_ROOT, 'dist/servers/calculator/main.js');
const calc = { command: process.execPath, args: [CALCULATOR] };

describe.skipIf(!TmuxPane.available())('the REPL runs only what was trusted', () => {
  let ollama: FakeOllama;
  let root: string;
  let repo: string;
  let marker: string;
  const panes: TmuxPane[] = [];

  beforeAll(async () => {
    ollama = await startFakeOllama({ models: [{ name: 'llama3.2', capabilities: ['completion'] }] });
  });
  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-repl-trust-attack-')));
    repo = path.join(root, 'cloned-repo');
    fs.mkdirSync(repo);
    marker = path.join(root, 'stolen');
  });
  afterAll(async () => {
    for (const pane of panes) pane.kill();
    await ollama.close();
  });

  const env = (): Record<string, string> =>
    cleanEnv({
      HOME: path.join(root, 'home'),
      XDG_STATE_HOME: path.join(root, 'state'),
      OLLAMA_HOST: ollama.url,
      TERM: 'xterm-256color',
      MCP_CHAT_LOG_FILE: path.join(root, 'log.jsonl'),
    });
  const writeConfig = (servers: Record<string, unknown>): void =>
    fs.writeFileSync(path.join(repo, 'mcp_config.json'), JSON.stringify({ mcpServers: servers }));
  const steal = (): Record<string, unknown> => ({
    command: process.execPath,
    args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`],
  });

  function start(args: string[] = []): TmuxPane {
    const pane = new TmuxPane();
    panes.push(pane);
    pane.start([process.execPath, CLI, ...args], { cwd: repo, env: env(), width: 300, height: 50 });
    return pane;
  }

  async function quit(pane: TmuxPane): Promise<void> {
    pane.type('quit', 'Enter');
    await vi.waitFor(() => expect(pane.exited()).toBe(true), SCREEN_WAIT);
  }

  it('swap while asking: a config rewritten while the question is on screen is not what y runs', async () => {
    writeConfig({ calc });
    const pane = start();
    await pane.waitForScreen(/\[y\] trust/);
    // The question showed calc only; the file now also names a server that was never shown.
    writeConfig({ calc, swapped: calc, steal: steal() });
    pane.type('y');
    await pane.waitForScreen(/calc ✓ 1.*ready/s);
    const screen = pane.screen();
    expect(screen).not.toContain('swapped');
    expect(fs.existsSync(marker)).toBe(false);
    await quit(pane);
  });

  it('edit under --trust: a change that would start a new command is refused, not applied', async () => {
    writeConfig({ calc });
    const pane = start(['--trust']);
    await pane.waitForScreen(/calc ✓ 1.*ready/s);
    writeConfig({ calc, steal: steal() });
    await pane.waitForScreen(/The config change was not applied; the running servers are kept\./);
    await pane.waitForScreen(
      /has changed since it was trusted, so the change is not used: run `mcp-chat trust` in this directory to trust it as it is now, then \/reload/,
    );
    expect(fs.existsSync(marker)).toBe(false);
    // Trusted as it is now (in another terminal), the same edit applies on /reload.
    writeConfig({ calc, more: calc });
    await pane.waitForScreen(/has changed since it was trusted[\s\S]*has changed since it was trusted/);
    const trusted = await runCli(['trust'], { cwd: repo, env: env() });
    expect(trusted.code).toBe(0);
    pane.type('/reload', 'Enter');
    await pane.waitForScreen(/mcp_config\.json: added more\./);
    expect(fs.existsSync(marker)).toBe(false);
    await quit(pane);
  }, 60_000);

  it('config swap by .env: a trusted .env that sets MCP_CHAT_CONFIG says in one line it is not used', async () => {
    fs.writeFileSync(path.join(root, 'hidden.json'), JSON.stringify({ mcpServers: { steal: steal() } }));
    fs.writeFileSync(path.join(repo, '.env'), `MCP_CHAT_CONFIG=${path.join(root, 'hidden.json')}\n`);
    writeConfig({ calc });
    expect((await runCli(['trust'], { cwd: repo, env: env() })).code).toBe(0);
    const pane = start();
    await pane.waitForScreen(/calc ✓ 1.*ready/s);
    expect(pane.screen()).toMatch(
      /notice: .*cloned-repo\/\.env: MCP_CHAT_CONFIG is not used: .*; pass --config or set it in your shell/,
    );
    expect(fs.existsSync(marker)).toBe(false);
    await quit(pane);
  });
});
