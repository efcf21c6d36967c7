/** `serve`'s flags (src/serve/serve-options.ts), and which `--host` is the address to bind (src/cli/serve-args.ts). */
import { describe, expect, it } from 'vitest';
import { serveHosts } from '../../src/cli/serve-args.js';
import { serveSettings } from '../../src/serve/serve-options.js';
import { UsageError } from '../../src/shared/errors.js';

const TOKEN = 'a-token-of-enough-length';

describe('serve flags', () => {
  it('binds loopback with a fresh token by default, and needs --token for any other address', () => {
    const first = serveSettings({});
    expect(first).toMatchObject({ host: '127.0.0.1', port: 7860 });
    expect(first.token).not.toBe(serveSettings({}).token);
    expect(() => serveSettings({ bind: '0.0.0.0' })).toThrow(UsageError);
    expect(serveSettings({ bind: '0.0.0.0', token: TOKEN })).toMatchObject({
      token: TOKEN,
      warning: expect.any(String),
    });
    for (const port of ['-1', '65536', 'http', '1.5']) expect(() => serveSettings({ port })).toThrow(UsageError);
    expect(() => serveSettings({ token: 'short' })).toThrow(UsageError);
    expect(serveSettings({ heartbeat: '0.5' }).heartbeatMs).toBe(500);
    for (const heartbeat of ['0', 'soon', '7200']) expect(() => serveSettings({ heartbeat })).toThrow(UsageError);
  });

  it('reads --host after serve as the bind address, and before it as Ollama', () => {
    expect(serveHosts(['--host', 'http://ollama:11434', 'serve', '--host', '0.0.0.0'], 'serve')).toEqual({
      ollama: 'http://ollama:11434',
      bind: '0.0.0.0',
    });
    expect(serveHosts(['serve', '--host=::1', '--port', '0'], 'serve')).toEqual({ bind: '::1' });
    expect(serveHosts(['serve'], 'serve')).toEqual({});
  });
});
