/**
 * OAuth with an authorization server that does not check PKCE, against the built binary: a real
 * OAuth-protected MCP server on 127.0.0.1 (test/helpers/oauth-server.mjs) whose metadata has no
 * `code_challenge_methods_supported`, or offers only `plain`. The MCP authorization spec
 * (2025-11-25) says the client must then refuse: an authorization code sent back to the loopback
 * callback without PKCE can be redeemed by whoever intercepts it.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthWorkspace, type OAuthWorkspace } from '../helpers/oauth-workspace.js';
import { killAll } from '../helpers/spawn-server.js';

const SERVER = 'nopkce';

interface ServerState {
  authorizations: number;
  clients: number;
  grants: { authorization_code: number };
}

const spaces: OAuthWorkspace[] = [];

async function workspace(pkce: 'absent' | 'plain'): Promise<OAuthWorkspace> {
  const space = await oauthWorkspace(SERVER, ['--pkce', pkce]);
  spaces.push(space);
  return space;
}

afterAll(async () => {
  await killAll();
  for (const space of spaces) space.remove();
});

describe.each(['absent', 'plain'] as const)('OAuth with an authorization server whose PKCE is %s', (pkce) => {
  let space: OAuthWorkspace;

  beforeAll(async () => {
    space = await workspace(pkce);
  });

  it('authorization code without PKCE: mcp-chat auth refuses, opens no browser, registers and stores nothing', async () => {
    const auth = await space.cli('auth', ['auth', SERVER]);
    expect(auth.code).toBe(1);
    expect(auth.stdout).toBe('');
    expect(auth.stderr).toMatch(
      new RegExp(`^error: ${SERVER}: refused to sign in: the authorization server \\S+ `, 'm'),
    );
    expect(auth.stderr).toContain(
      pkce === 'absent'
        ? 'does not say it supports PKCE (its metadata has no code_challenge_methods_supported)'
        : 'offers PKCE only with "plain", not S256',
    );
    expect(auth.stderr).toContain("Ask the server's operator to enable PKCE with S256");
    expect(auth.stderr).not.toContain('open this URL');
    expect(auth.stderr).not.toMatch(/^\s+at /m);
    expect(fs.existsSync(space.browserLog)).toBe(false);
    expect(fs.existsSync(space.tokenFile)).toBe(false);
    const state = await space.serverState<ServerState>();
    expect(state).toMatchObject({ authorizations: 0, clients: 0, grants: { authorization_code: 0 } });
  });

  it('a script still only says the server needs authorisation, and works on', async () => {
    const tools = await space.cli('tools', ['tools', '--json']);
    expect(tools.code).toBe(0);
    expect(tools.stderr).toContain(`warning: ${SERVER}: needs authorisation: run mcp-chat auth ${SERVER}`);
    expect(fs.existsSync(space.tokenFile)).toBe(false);
  });
});
