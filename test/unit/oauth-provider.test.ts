/**
 * mcp-chat's OAuthClientProvider without a network: what a script does when a person is needed
 * (never registers, never opens anything, says what to run), what a login re-registers, how often
 * a login lets a server ask again, and that every token it handles is hidden by value afterwards.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OAuthSettings, RemoteServerConfig } from '../../src/config/types.js';
import { remoteServer } from '../helpers/server-configs.js';
import type { AuthorizationCallback } from '../../src/mcp/oauth-callback.js';
import { AuthorisationNeeded } from '../../src/mcp/authorisation-needed.js';
import { effectiveOAuth } from '../../src/mcp/oauth-policy.js';
import { MAX_AUTHORIZATIONS, type ProviderMode, StoredOAuthProvider } from '../../src/mcp/oauth-provider.js';
import { OAuthStore } from '../../src/mcp/oauth-store.js';
import { errorWithoutSecrets, hideSecrets, secretValues } from '../../src/mcp/server-secrets.js';
import { createLogger } from '../../src/shared/log.js';

/** Not shaped like any known token: only knowing the value can hide it. */
const ACCESS = 'plain-access-value-5c1e8a7d';
const REFRESH = 'plain-refresh-value-9b3f0e2a';
const URL_MCP = 'https://mcp.example.com/mcp';

let dir: string;

beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-oauth-provider-')));
});

afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function remote(overrides: Partial<RemoteServerConfig> = {}): RemoteServerConfig {
  return remoteServer('notes', URL_MCP, { timeoutMs: 5_000, ...overrides });
}

const LOGIN_CALLBACK: AuthorizationCallback = {
  redirectUrl: 'http://127.0.0.1:5555/callback',
  expect: () => new Promise<string>(() => undefined),
  close: async () => undefined,
};

function provider(
  mode: ProviderMode,
  config = remote(),
  settings: OAuthSettings = { mode: 'auto', grant: 'authorization_code' },
  logFile?: string,
): { provider: StoredOAuthProvider; store: OAuthStore; config: RemoteServerConfig } {
  const store = new OAuthStore(dir, config.name, config.url);
  const log = createLogger({ level: 'debug', file: logFile ?? null });
  const made = new StoredOAuthProvider({ config, settings, store, fetch: globalThis.fetch, log, mode });
  return { provider: made, store, config };
}

const login = (opened: URL[] = []): ProviderMode => ({
  kind: 'login',
  callback: LOGIN_CALLBACK,
  onAuthorizationUrl: async (url) => void opened.push(url),
  timeoutMs: 1_000,
});

describe('effectiveOAuth', () => {
  it('uses OAuth on a 401 unless the entry says "none" or sends its own Authorization header', () => {
    expect(effectiveOAuth(remote())).toEqual({ mode: 'auto', grant: 'authorization_code' });
    expect(effectiveOAuth(remote({ headers: { authorization: 'Bearer x' } }))).toBeUndefined();
    expect(effectiveOAuth(remote({ oauth: { mode: 'none', grant: 'authorization_code' } }))).toBeUndefined();
    const forced: OAuthSettings = { mode: 'oauth', grant: 'authorization_code', clientId: 'c' };
    expect(effectiveOAuth(remote({ oauth: forced }))).toBe(forced);
  });
});

describe('a script (no person at hand)', () => {
  it('never registers a client: it says to run mcp-chat auth, and writes nothing', () => {
    const { provider: script, store } = provider({ kind: 'script' });
    expect(() => script.clientInformation()).toThrow(AuthorisationNeeded);
    expect(() => script.clientInformation()).toThrow(/^needs authorisation: run mcp-chat auth notes/);
    expect(fs.existsSync(store.file)).toBe(false);
  });

  it('never opens the authorization URL; a step-up leaves the scope for the next mcp-chat auth', async () => {
    const { provider: script, store } = provider({ kind: 'script' });
    store.update(() => ({ client: { client_id: 'c' }, tokens: { access_token: ACCESS, token_type: 'bearer' } }));
    const url = new URL('https://auth.example.com/authorize?scope=files%3Aread+files%3Awrite');
    await expect(script.redirectToAuthorization(url)).rejects.toThrow(
      'needs authorisation: run mcp-chat auth notes (the server asks for more access: scope "files:read files:write")',
    );
    expect(store.read().requestedScope).toBe('files:read files:write');
  });

  it('after the authorization server refused the stored tokens, says they were revoked or expired', async () => {
    const { provider: script, store } = provider({ kind: 'script' });
    store.update(() => ({ client: { client_id: 'c' }, tokens: { access_token: ACCESS, token_type: 'bearer' } }));
    script.invalidateCredentials('tokens');
    expect(store.read()).toEqual({ client: { client_id: 'c' } });
    await expect(script.redirectToAuthorization(new URL('https://auth.example.com/authorize'))).rejects.toThrow(
      '(the server refused the stored authorisation: revoked or expired)',
    );
  });

  it('a client of its own (client_credentials) asks for its token with its scope, no redirect', () => {
    const settings: OAuthSettings = {
      mode: 'auto',
      grant: 'client_credentials',
      clientId: 'bot',
      clientSecret: 's3cret-value',
    };
    const { provider: bot } = provider({ kind: 'script' }, remote(), settings);
    expect(bot.redirectUrl).toBeUndefined();
    expect(bot.clientInformation()).toEqual({ client_id: 'bot', client_secret: 's3cret-value' });
    expect(bot.prepareTokenRequest('a b')?.toString()).toBe('grant_type=client_credentials&scope=a+b');
  });
});

describe('a login (mcp-chat auth, /auth)', () => {
  it('registers again when the stored client was registered for another callback port', () => {
    const { provider: person, store } = provider(login());
    store.update(() => ({ client: { client_id: 'old', redirect_uris: ['http://127.0.0.1:4444/callback'] } }));
    expect(person.clientInformation()).toBeUndefined();
    store.update(() => ({ client: { client_id: 'same', redirect_uris: [LOGIN_CALLBACK.redirectUrl] } }));
    expect(person.clientInformation()).toMatchObject({ client_id: 'same' });
    expect(person.clientMetadata).toMatchObject({
      redirect_uris: [LOGIN_CALLBACK.redirectUrl],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    });
  });

  it('authorization code without PKCE: refuses before registering, and keeps nothing of what discovery found', () => {
    const { provider: person, store } = provider(login());
    const noPkce = {
      authorizationServerUrl: 'https://auth.example.com/',
      authorizationServerMetadata: {
        issuer: 'https://auth.example.com/',
        authorization_endpoint: 'https://auth.example.com/authorize',
        token_endpoint: 'https://auth.example.com/token',
        response_types_supported: ['code'],
      },
    };
    expect(() => person.saveDiscoveryState(noPkce)).toThrow(/^refused to sign in: /);
    expect(fs.existsSync(store.file)).toBe(false);
    // Found by an earlier sign-in, before the server dropped PKCE: refused before any registration too.
    store.update(() => ({ discovery: noPkce }));
    expect(() => person.clientInformation()).toThrow(/^refused to sign in: /);
    // A script starts no authorization: it reads what was stored and says a person is needed, as before.
    const { provider: script } = provider({ kind: 'script' });
    expect(() => script.clientInformation()).toThrow(AuthorisationNeeded);
  });

  it(`opens the authorization URL at most ${MAX_AUTHORIZATIONS} times, then says the server wants more than it grants`, async () => {
    const opened: URL[] = [];
    const { provider: person } = provider(login(opened));
    const url = new URL('https://auth.example.com/authorize?scope=admin');
    for (let i = 0; i < MAX_AUTHORIZATIONS; i++) {
      person.state();
      await person.redirectToAuthorization(url);
      expect(person.takePendingCode()).toBeInstanceOf(Promise);
    }
    person.state();
    await expect(person.redirectToAuthorization(url)).rejects.toThrow(
      `the server still refuses after ${MAX_AUTHORIZATIONS} authorisations (it asks for scope "admin")`,
    );
    expect(opened).toHaveLength(MAX_AUTHORIZATIONS);
    expect(person.takePendingCode()).toBeUndefined();
  });
});

describe('tokens are secrets once known', () => {
  it('token in error messages: a server error quoting the saved tokens shows them hidden', () => {
    const { provider: script, config } = provider({ kind: 'script' });
    script.saveTokens({ access_token: ACCESS, token_type: 'bearer', refresh_token: REFRESH, expires_in: 60 });
    const message = `upstream said: token ${ACCESS} (refresh ${REFRESH}) is not valid here`;
    expect(hideSecrets(message, config)).toBe('upstream said: token [REDACTED] (refresh [REDACTED]) is not valid here');
    const safe = errorWithoutSecrets(new Error(message), secretValues(config));
    expect(`${safe.message}\n${safe.stack}`).not.toContain(ACCESS);
  });

  it('token in error messages: tokens read back from the store by a new process are hidden too', async () => {
    provider({ kind: 'script' }).store.update(() => ({
      client: { client_id: 'c' },
      tokens: { access_token: ACCESS, token_type: 'bearer', refresh_token: REFRESH },
    }));
    const fresh = provider({ kind: 'script' });
    expect(await fresh.provider.tokens()).toMatchObject({ access_token: ACCESS });
    expect(hideSecrets(`got ${ACCESS}`, fresh.config)).toBe('got [REDACTED]');
  });

  it("token in logs: the provider's own log lines carry no token", async () => {
    const logFile = path.join(dir, 'provider.log');
    const { provider: script } = provider({ kind: 'script' }, remote(), undefined, logFile);
    script.saveTokens({ access_token: ACCESS, token_type: 'bearer', refresh_token: REFRESH, expires_in: 60 });
    script.invalidateCredentials('tokens');
    await expect(script.redirectToAuthorization(new URL('https://auth.example.com/authorize'))).rejects.toThrow();
    const lines = fs.readFileSync(logFile, 'utf8');
    expect(lines).toContain('OAuth tokens stored');
    expect(lines).not.toContain(ACCESS);
    expect(lines).not.toContain(REFRESH);
  });

  it("the entry's configured client secret is one of its secrets", () => {
    const config = remote({
      oauth: { mode: 'auto', grant: 'client_credentials', clientId: 'bot', clientSecret: 'configured-secret-771' },
    });
    expect(secretValues(config)).toContain('configured-secret-771');
  });
});
