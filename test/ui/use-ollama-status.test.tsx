/**
 * Degraded start with the real Ollama client: nothing listens at the configured URL, so the
 * REPL says what is wrong and how to fix it, built-ins still work, and once Ollama is
 * there the next message gets through. A missing model is explained the same way.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { cleanup } from 'ink-testing-library';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/shared/log.js';
import { createOllamaClient } from '../../src/ollama/client.js';
import { startFakeOllama, type FakeOllama } from '../fakes/fake-ollama.js';
import { renderApp, testRuntime } from './render-app.js';

/** A TCP port on 127.0.0.1 that forwards to the fake Ollama only while `up()`. */
class SwitchablePort {
  private readonly sockets = new Set<net.Socket>();
  private readonly server: net.Server;

  private constructor(
    readonly port: number,
    targetPort: number,
  ) {
    this.server = net.createServer((socket) => {
      const upstream = net.connect(targetPort, '127.0.0.1');
      for (const end of [socket, upstream]) {
        this.sockets.add(end);
        end.on('close', () => this.sockets.delete(end));
        end.on('error', () => undefined);
      }
      socket.pipe(upstream).pipe(socket);
    });
  }

  /** Finds a free port and leaves it closed: connecting to it is refused, as with Ollama not running. */
  static async reserve(target: FakeOllama): Promise<SwitchablePort> {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    return new SwitchablePort(port, Number(new URL(target.url).port));
  }

  up(): Promise<void> {
    return new Promise((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
  }

  close(): Promise<void> {
    // Kept-alive client connections would hold `close()` open for seconds.
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => (this.server.listening ? this.server.close(() => resolve()) : resolve()));
  }
}

describe('degraded start', () => {
  let ollama: FakeOllama;
  let port: SwitchablePort;

  beforeEach(async () => {
    ollama = await startFakeOllama({ models: [{ name: 'llama3.2', capabilities: ['completion'] }] });
    port = await SwitchablePort.reserve(ollama);
  });

  afterEach(async () => {
    cleanup();
    await port.close();
    await ollama.close();
  });

  function renderAt(baseUrl: string, model = 'llama3.2') {
    const runtime = testRuntime({ baseUrl, model });
    return renderApp({ runtime, llm: createOllamaClient(runtime.config.ollama, silentLogger) });
  }

  it('says Ollama is down and how to fix it, keeps the built-ins working, and the next message retries', async () => {
    const url = `http://127.0.0.1:${port.port}`;
    const app = renderAt(url);
    await app.waitForScreen(new RegExp(`✗ Ollama is not reachable at ${url.replace(/\./g, '\\.')} \\(.+\\)`));
    const screen = app.screen();
    expect(screen).toContain(
      'Start it with `ollama serve` (or open the Ollama app), or point --host / OLLAMA_HOST at it.',
    );
    expect(screen).toContain('the next message tries Ollama again');
    expect(screen).toMatch(/^llama3\.2 {2}ollama ✗/m);

    await app.ready();
    app.send('tools');
    await app.waitForScreen(/evaluate\(expression\)/);
    app.send('servers');
    await app.waitForScreen(/Servers:\n {2}calculator +ready/);

    app.send('Are you there?');
    await app.waitForScreen(/› Are you there\?\n✗ Ollama is not reachable/);
    expect(app.exited()).toBe(false);

    await port.up();
    ollama.script('Yes, I am here.');
    app.send('And now?');
    await app.waitForScreen(/Yes, I am here\./);
    await app.waitForScreen(/^llama3\.2 {2}ollama ✓/m);
  });

  it('names a model that is not pulled and says how to pull it', async () => {
    const app = renderAt(ollama.url, 'mistral');
    await app.waitForScreen(/✗ model mistral is not available on http:\/\/127\.0\.0\.1:\d+/);
    expect(app.screen()).toContain('Pull it with `ollama pull mistral` or `mcp-chat pull mistral`.');
    expect(app.screen()).toMatch(/^mistral {2}ollama ✗/m);
  });
});
