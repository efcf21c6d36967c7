/**
 * A place to run `mcp-chat` against an OAuth test server (test/helpers/oauth-server.mjs, started
 * with the given options): its own config with one `http` entry, state directory and log, and
 * `BROWSER` set to a stand-in browser that follows the authorization URL back to the CLI's
 * callback and notes each URL it was given. Every run's output is kept for leak checks.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanEnv, runCli, type CliResult } from './run-cli.js';
import { REPO_ROOT } from './server-configs.js';
import { spawnNodeServer } from './spawn-server.js';

const OAUTH_SERVER = path.join(REPO_ROOT, 'test/helpers/oauth-server.mjs');
const BROWSER_SCRIPT = path.join(REPO_ROOT, 'scripts/oauth-browser.mjs');

export interface OAuthWorkspace {
  dir: string;
  mcpUrl: string;
  logFile: string;
  /** Where mcp-chat keeps the server's OAuth state. */
  tokenFile: string;
  /** The URLs the stand-in browser was asked to open, one a line; no file when it never was. */
  browserLog: string;
  outputs: { label: string; result: CliResult }[];
  cli: (label: string, args: string[]) => Promise<CliResult>;
  /** The test server's own account of what it was sent (`GET /test/state`). */
  serverState: <T>() => Promise<T>;
  remove: () => void;
}

/** `BROWSER` is run as a command with the URL as its one argument: a wrapper noting it, then running the stand-in. */
function writeBrowser(dir: string, browserLog: string): string {
  const file = path.join(dir, 'browser.sh');
  const script = `#!/bin/sh\necho "$1" >> '${browserLog}'\nexec '${process.execPath}' '${BROWSER_SCRIPT}' "$1"\n`;
  fs.writeFileSync(file, script, { mode: 0o755 });
  return file;
}

/** Starts the OAuth test server with `serverArgs` and a workspace whose entry `server` points at it. */
export async function oauthWorkspace(server: string, serverArgs: string[] = []): Promise<OAuthWorkspace> {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-oauth-')));
  const stateHome = path.join(dir, 'state');
  const logFile = path.join(dir, 'mcp-chat.log');
  const browserLog = path.join(dir, 'browser.log');
  const { ready: mcpUrl } = await spawnNodeServer([OAUTH_SERVER, ...serverArgs], {}, /listening on (http:\/\/\S+)/);
  const config = path.join(dir, 'mcp_config.json');
  fs.writeFileSync(config, JSON.stringify({ mcpServers: { [server]: { type: 'http', url: mcpUrl } } }));
  const env = cleanEnv({
    HOME: dir,
    XDG_STATE_HOME: stateHome,
    MCP_CHAT_LOG_FILE: logFile,
    MCP_CHAT_LOG_LEVEL: 'debug',
    BROWSER: writeBrowser(dir, browserLog),
  });
  const outputs: OAuthWorkspace['outputs'] = [];
  return {
    dir,
    mcpUrl,
    logFile,
    tokenFile: path.join(stateHome, 'mcp-chat', 'oauth', `${server}.json`),
    browserLog,
    outputs,
    cli: async (label, args) => {
      const result = await runCli([...args, '--config', config], { cwd: dir, env, timeoutMs: 30_000 });
      outputs.push({ label, result });
      return result;
    },
    serverState: async <T>() => (await (await fetch(new URL('/test/state', mcpUrl))).json()) as T,
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
