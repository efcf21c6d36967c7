/**
 * A remote entry's `auth` and `oauth` keys: validated, expanded (`${VAR}` in the client id, secret
 * and key file, which a missing variable disables like any other), and absent when not written.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import type { RemoteServerConfig } from '../../src/config/types.js';
import { configErrorOf, useConfigDir } from '../helpers/config-dir.js';

const { root, write, options } = useConfigDir();

function load(servers: Record<string, unknown>, env: Record<string, string | undefined> = {}) {
  return loadConfig(options({ configPath: write('proj/mcp_config.json', { mcpServers: servers }), env }));
}

const remoteOf = (servers: Record<string, unknown>, env?: Record<string, string>): RemoteServerConfig =>
  load(servers, env).servers[0] as RemoteServerConfig;

describe('auth and oauth in a server entry', () => {
  it('an entry without them resolves as before: OAuth is then the connector’s call (on a 401)', () => {
    expect(remoteOf({ notes: { url: 'https://mcp.example.com/mcp' } }).oauth).toBeUndefined();
  });

  it('resolves every key, expanding variables and the key file against the config directory', () => {
    const server = remoteOf(
      {
        notes: {
          url: 'https://mcp.example.com/mcp',
          auth: 'oauth',
          oauth: {
            clientId: '${NOTES_CLIENT}',
            clientSecret: '${NOTES_SECRET}',
            scopes: ['notes:read', 'notes:write'],
            callbackPort: 8765,
            clientMetadataUrl: 'https://mcp-chat.example/client.json',
            privateKeyFile: 'keys/notes.pem',
            signingAlgorithm: 'ES256',
          },
        },
      },
      { NOTES_CLIENT: 'client-1', NOTES_SECRET: 'secret-1' },
    );
    expect(server.oauth).toEqual({
      mode: 'oauth',
      grant: 'authorization_code',
      clientId: 'client-1',
      clientSecret: 'secret-1',
      scopes: ['notes:read', 'notes:write'],
      callbackPort: 8765,
      clientMetadataUrl: 'https://mcp-chat.example/client.json',
      privateKeyFile: path.join(root(), 'proj/keys/notes.pem'),
      signingAlgorithm: 'ES256',
    });
  });

  it('"auth": "none" turns OAuth off; a missing variable in the secret disables the server', () => {
    expect(remoteOf({ notes: { url: 'https://mcp.example.com/mcp', auth: 'none' } }).oauth).toEqual({
      mode: 'none',
      grant: 'authorization_code',
    });
    const config = load({ notes: { url: 'https://x.example/mcp', oauth: { clientId: 'c', clientSecret: '${GONE}' } } });
    expect(config.servers).toEqual([]);
    expect(config.disabled[0]?.reason).toContain('GONE');
  });

  it('refuses what cannot work, naming the field', () => {
    const message = (servers: Record<string, unknown>): string => configErrorOf(() => load(servers)).message;
    expect(message({ calc: { command: 'node', auth: 'oauth' } })).toContain('"auth" applies only to remote servers');
    expect(message({ calc: { command: 'node', oauth: {} } })).toContain('"oauth" applies only to remote servers');
    expect(
      message({ gh: { url: 'https://x.example/mcp', auth: 'oauth', headers: { Authorization: 'Bearer t' } } }),
    ).toContain('use one or the other');
    expect(message({ bot: { url: 'https://x.example/mcp', oauth: { grant: 'client_credentials' } } })).toMatch(
      /clientId.*"client_credentials" needs "clientId"[\s\S]*needs "clientSecret" or "privateKeyFile"/,
    );
    expect(message({ n: { url: 'https://x.example/mcp', oauth: { callbackPort: 70000 } } })).toContain('callbackPort');
    expect(
      message({ n: { url: 'https://x.example/mcp', oauth: { clientMetadataUrl: 'http://x.example/c' } } }),
    ).toContain('clientMetadataUrl');
    expect(message({ n: { url: 'https://x.example/mcp', oauth: { token: 'x' } } })).toContain('token');
  });
});
