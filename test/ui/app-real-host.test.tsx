/**
 * The App over a real McpHost and real stdio servers: the status bar follows the servers
 * as they come up or fail, tool output reaches the screen inert, and a cancel reaches the server.
 */
import { cleanup } from 'ink-testing-library';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/shared/log.js';
import { McpHost } from '../../src/mcp/host.js';
import { StatusFeed } from '../../src/session/chat-session.js';
import { builtServer, scriptedServer } from '../helpers/server-configs.js';
import { KEY, renderApp, startApp, TestLlm, useTool } from './render-app.js';

function hostWithEvents(configs: ConstructorParameters<typeof McpHost>[0]): { host: McpHost; status: StatusFeed } {
  const status = new StatusFeed();
  const host = new McpHost(configs, { log: silentLogger, onStatus: () => status.notify() });
  return { host, status };
}

afterEach(() => cleanup());

describe('the status bar', () => {
  let host: McpHost;

  afterAll(async () => {
    await host.close();
  });

  it('shows each server starting, then ready with its tool count or failed, then ready overall', async () => {
    const built = hostWithEvents([builtServer('calculator'), scriptedServer('broken', ['start-fail'])]);
    host = built.host;
    const app = renderApp({ host, status: built.status });
    await app.waitForScreen(/^scripted-model {2}ollama ✓ {2}calculator starting {2}broken starting$/m);
    expect(app.screen()).not.toMatch(/ready$/m);
    const started = host.start();
    await app.waitForScreen(/^scripted-model {2}ollama ✓ {2}calculator ✓ 1 {2}broken ✗ failed {2}ready$/m);
    await started;

    await app.ready();
    app.send('servers');
    await app.waitForScreen(
      /^ {2}broken +failed, 0 tools\n {6}last error: failed to start \([\s\S]*start-fail\): [\s\S]*\n {6}last output:\n {6}broken: cannot open database \/nonexistent\/db\.sqlite$/m,
    );
    expect(app.screen()).toMatch(/^ {2}calculator +ready, 1 tool, started in \d+ ms$/m);
  });
});

describe('tool calls on a real server', () => {
  let host: McpHost;
  let status: StatusFeed;

  beforeAll(async () => {
    ({ host, status } = hostWithEvents([scriptedServer('scripted', [], { alwaysAllow: ['hang'], trust: true })]));
    await host.start();
  });

  afterAll(async () => {
    await host.close();
  });

  it('shows tool output on one line with its escape sequences removed', async () => {
    const llm = new TestLlm([useTool('scripted', 'ansi', {}), 'Done.']);
    const app = await startApp({ host, status, llm });
    app.send('Colour me');
    await app.waitForScreen(/Done\./);
    expect(app.screen()).toMatch(/^✓ scripted\.ansi\(\) \d+ ms → red done next$/m);
    const frame = app.ui.lastFrame() ?? '';
    expect(frame).not.toMatch(/\u001b\[31mred|\u001b\]0;title|\u0007/);
  });

  it('Ctrl+C during a call cancels it on the server and keeps the session', async () => {
    const llm = new TestLlm([useTool('scripted', 'hang', {}), 'Still here.']);
    const app = await startApp({ host, status, llm });
    app.send('Hang');
    await app.waitForScreen(/scripted\.hang\(\)/);
    await app.waitUntil(async () =>
      expect((await host.callTool({ server: 'scripted', tool: 'hanging', arguments: {} })).forModel).toBe('1'),
    );
    app.press(KEY.ctrlC);
    await app.waitForScreen(/Cancelled\./);
    await app.waitUntil(async () =>
      expect((await host.callTool({ server: 'scripted', tool: 'cancellations', arguments: {} })).forModel).toBe('1'),
    );
    app.send('Hello?');
    await app.waitForScreen(/Still here\./);
  });
});
