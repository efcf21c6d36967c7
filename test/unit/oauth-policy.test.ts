/**
 * When an authorization-code flow may start: only with an authorization server whose metadata says
 * it takes PKCE with S256 (MCP 2025-11-25), or with a 2025-03-26 server that publishes no metadata
 * at all and is used on its default endpoints, with S256, as that revision says.
 */
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { describe, expect, it } from 'vitest';
import { pkceRefusal } from '../../src/mcp/oauth-policy.js';

const AS = 'https://auth.example.com/';

function metadata(methods?: string[]): OAuthMetadata {
  return {
    issuer: AS,
    authorization_endpoint: `${AS}authorize`,
    token_endpoint: `${AS}token`,
    response_types_supported: ['code'],
    ...(methods ? { code_challenge_methods_supported: methods } : {}),
  };
}

const RESOURCE = { resource: 'https://mcp.example.com/mcp', authorization_servers: [AS] };

function discovery(parts: Partial<OAuthDiscoveryState>): OAuthDiscoveryState {
  return { authorizationServerUrl: AS, ...parts };
}

describe('pkceRefusal', () => {
  it('lets the flow start when the authorization server lists S256', () => {
    expect(
      pkceRefusal('notes', discovery({ authorizationServerMetadata: metadata(['plain', 'S256']) })),
    ).toBeUndefined();
  });

  it('refuses when the metadata has no code_challenge_methods_supported, naming the server and what to do', () => {
    const refusal = pkceRefusal('notes', discovery({ authorizationServerMetadata: metadata() }));
    expect(refusal?.message).toMatch(/^refused to sign in: the authorization server https:\/\/auth\.example\.com\/ /);
    expect(refusal?.message).toContain('its metadata has no code_challenge_methods_supported');
    expect(refusal?.message).toContain("Ask the server's operator to enable PKCE with S256");
    expect(refusal?.message).toContain('to the "notes" entry');
  });

  it('refuses when the metadata offers PKCE without S256', () => {
    const refusal = pkceRefusal('notes', discovery({ authorizationServerMetadata: metadata(['plain']) }));
    expect(refusal?.message).toContain('offers PKCE only with "plain", not S256');
  });

  it('refuses a server that names an authorization server publishing no metadata: nothing says it checks PKCE', () => {
    const refusal = pkceRefusal('notes', discovery({ resourceMetadata: RESOURCE }));
    expect(refusal?.message).toContain('publishes no authorization server metadata');
  });

  it('lets a 2025-03-26 server with no metadata at all use its default endpoints, where PKCE is required', () => {
    expect(pkceRefusal('notes', discovery({}))).toBeUndefined();
  });
});
