/**
 * `/auth <server>` in the REPL, over a real McpHost and a real OAuth-protected server on 127.0.0.1
 * (test/helpers/oauth-server.mjs): the server starts failed for want of a token; `/auth` shows the
 * authorization URL in the conversation, a stand-in `$BROWSER` follows it, and the server comes
 * back up with its tools. No token is ever on the screen.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanup } from 'ink-testing-library';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RemoteServerConfig } from '../../src/config/types.js';
import { McpHost } from '../../src/mcp/host.js';
import { StatusFeed } from '../../src/session/chat-session.js';
import { silentLogger } from '../../src/shared/log.js';
import { REPO_ROOT, remoteServer } from '../helpers/server-configs.js';
import { killAll, spawnNodeServer } from '../helpers/spawn-server.js';
import { startApp, testRuntime } from './render-app.js';

let workDir: string;
let server: RemoteServerConfig;
let host: McpHost | undefined;

beforeAll(async () => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-repl-auth-')));
  const browser = path.join(workDir, 'browser.sh');
  const follower = path.join(REPO_ROOT, 'scripts/oauth-browser.mjs');
  fs.writeFileSync(browser, `#!/bin/sh\nexec '${process.execPath}' '${follower}' "$1"\n`, { mode: 0o755 });
  vi.stubEnv('BROWSER', browser);
  vi.stubEnv('XDG_STATE_HOME', path.join(workDir, 'state'));
  const spawned = await spawnNodeServer(
    [path.join(REPO_ROOT, 'test/helpers/oauth-server.mjs')],
    {},
    /listening on (http:\/\/\S+)/,
  );
  server = remoteServer('guarded', spawned.ready);
});

afterEach(() => cleanup());

afterAll(async () => {
  await host?.close();
  await killAll();
  vi.unstubAllEnvs();
  fs.rmSync(workDir, { recursive: true, force: true });
});

describe('/auth in the REPL', () => {
  it('authorises a server that needs it in the browser and starts it with its tools', async () => {
    const status = new StatusFeed();
    host = new McpHost([server], { log: silentLogger, onStatus: () => status.notify() });
    await host.start();
    expect(host.statuses()[0]?.lastError).toContain('needs authorisation: run mcp-chat auth guarded');
    const runtime = testRuntime();
    const app = await startApp({
      host,
      status,
      runtime: { ...runtime, config: { ...runtime.config, servers: [server] } },
    });

    app.send('/auth guarded');
    await app.waitForScreen(/guarded is on: 2 tools\./);
    expect(app.screen()).toMatch(/To authorise guarded, open this URL .*: http:\/\/127\.0\.0\.1:\d+\/authorize\?/);
    expect(host.statuses()[0]?.state).toBe('ready');
    const stored = JSON.parse(
      fs.readFileSync(path.join(workDir, 'state', 'mcp-chat', 'oauth', 'guarded.json'), 'utf8'),
    ) as { tokens: { access_token: string } };
    expect(app.screen()).not.toContain(stored.tokens.access_token);
  });

  it('names the remote servers when none is given, and refuses one that is not remote', async () => {
    const runtime = testRuntime();
    const app = await startApp({ runtime: { ...runtime, config: { ...runtime.config, servers: [server] } } });
    app.send('/auth');
    await app.waitForScreen(/name the server: \/auth <server> \(remote servers: guarded\)/);
    app.send('/auth calculator');
    await app.waitForScreen(/no remote server "calculator" \(remote servers: guarded\)/);
  });
});
