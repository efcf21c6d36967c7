/**
 * Scopes across a step-up: a new authorization asks for what was granted as well as what the
 * server's 403 names, and a 403 for want of scope makes the SDK authorize anew instead of
 * refreshing a token that would keep its old scope.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuthorizationCallback } from '../../src/mcp/oauth-callback.js';
import { type ProviderMode, StoredOAuthProvider } from '../../src/mcp/oauth-provider.js';
import { unionScopes, watchScopeChallenges, withGrantedScopes } from '../../src/mcp/oauth-scope.js';
import { OAuthStore } from '../../src/mcp/oauth-store.js';
import { createLogger } from '../../src/shared/log.js';
import { remoteServer } from '../helpers/server-configs.js';

const TOKENS = { access_token: 'a-1', refresh_token: 'r-1', token_type: 'bearer', scope: 'notes:read' };
const CALLBACK: AuthorizationCallback = {
  redirectUrl: 'http://127.0.0.1:5555/callback',
  expect: () => new Promise<string>(() => undefined),
  close: async () => undefined,
};

let dir: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-oauth-scope-')));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function provider(mode: ProviderMode): { provider: StoredOAuthProvider; store: OAuthStore } {
  const config = remoteServer('notes', 'https://mcp.example.com/mcp', { timeoutMs: 5_000 });
  const store = new OAuthStore(dir, config.name, config.url);
  const log = createLogger({ level: 'silent', file: null });
  const settings = { mode: 'auto', grant: 'authorization_code' } as const;
  return { provider: new StoredOAuthProvider({ config, settings, store, fetch: globalThis.fetch, log, mode }), store };
}

describe('unionScopes and withGrantedScopes', () => {
  it('keep each scope once, in the order first met', () => {
    expect(unionScopes('a b', ' b  c ', undefined)).toBe('a b c');
    expect(unionScopes(undefined, '')).toBeUndefined();
  });

  it('widen a step-up URL with the scopes granted, and leave one that names no scope alone', () => {
    const url = new URL('https://auth.example.com/authorize?scope=notes%3Awrite&state=s');
    const widened = withGrantedScopes(url, 'notes:read');
    expect(widened.searchParams.get('scope')).toBe('notes:read notes:write');
    expect(widened.searchParams.get('state')).toBe('s');
    expect(url.searchParams.get('scope')).toBe('notes:write');
    const unscoped = new URL('https://auth.example.com/authorize');
    expect(withGrantedScopes(unscoped, 'notes:read')).toBe(unscoped);
  });
});

describe('a 403 for want of scope', () => {
  it('is told to the provider by the watched fetch; other answers are not', async () => {
    let told = 0;
    const answers = [
      new Response('', {
        status: 403,
        headers: { 'WWW-Authenticate': 'Bearer error="insufficient_scope", scope="x"' },
      }),
      new Response('', { status: 403 }),
      new Response('', { status: 401, headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' } }),
    ];
    const fetch = watchScopeChallenges(
      async () => answers.shift() ?? new Response(''),
      () => void (told += 1),
    );
    for (let i = 0; i < 3; i++) await fetch('https://mcp.example.com/mcp');
    expect(told).toBe(1);
  });

  it('hides the refresh token from the SDK until the new authorization starts, so it is not refreshed instead', async () => {
    const { provider: script, store } = provider({ kind: 'script' });
    store.update(() => ({ client: { client_id: 'c' }, tokens: TOKENS }));
    script.stepUpChallenged();
    expect(await script.tokens()).toEqual({ access_token: 'a-1', token_type: 'bearer', scope: 'notes:read' });
    const url = new URL('https://auth.example.com/authorize?scope=notes%3Awrite');
    await expect(script.redirectToAuthorization(url)).rejects.toThrow('scope "notes:write"');
    expect(store.read().requestedScope).toBe('notes:read notes:write');
    expect((await script.tokens())?.refresh_token).toBe('r-1');
  });

  it('within a sign-in, asks for the scope granted so far as well, and keeps what it asked for', async () => {
    const opened: URL[] = [];
    const mode: ProviderMode = {
      kind: 'login',
      callback: CALLBACK,
      onAuthorizationUrl: async (url) => void opened.push(url),
      timeoutMs: 1_000,
    };
    const { provider: person, store } = provider(mode);
    store.update(() => ({ tokens: TOKENS }));
    person.state();
    await person.redirectToAuthorization(new URL('https://auth.example.com/authorize?scope=notes%3Awrite'));
    expect(opened.map((url) => url.searchParams.get('scope'))).toEqual(['notes:read notes:write']);
    person.saveTokens({ access_token: 'a-2', token_type: 'bearer' });
    expect(store.read().tokens?.scope).toBe('notes:read notes:write');
  });
});
