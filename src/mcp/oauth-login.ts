/**
 * `mcp-chat auth <server>` and `/auth <server>`: start, or redo, a remote server's OAuth with a
 * person. The stored tokens are dropped, the server is asked for its tools, and the 401 that
 * brings runs the SDK's flow: the authorization URL is printed (always) and opened, the code comes
 * back to the loopback callback, and the SDK exchanges it. It ends with the tools the new token
 * lists, so a success is a working token. `logout` forgets everything stored for the server.
 */
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { DeclinedRequest, type ServerRequestHandler } from '../vocabulary/server-requests.js';
import type { OAuthSettings, RemoteServerConfig } from '../config/types.js';
import { errorMessage } from '../shared/errors.js';
import type { Logger } from '../shared/log.js';
import type { StateEnv } from '../shared/state-dir.js';
import { connectRemote } from './connect-remote.js';
import type { ConnectOptions } from './connection.js';
import { listenForCallback } from './oauth-callback.js';
import { effectiveOAuth } from './oauth-policy.js';
import { StoredOAuthProvider } from './oauth-provider.js';
import { oauthStoreFor, withoutKeys } from './oauth-store.js';
import { allPages } from './paginate.js';
import { createRemoteFetch } from './remote-fetch.js';

/** Long enough to sign in, approve and come back; a script driving a browser needs seconds. */
const DEFAULT_BROWSER_TIMEOUT_MS = 5 * 60_000;

export interface LoginOptions {
  log: Logger;
  /** Shows one line to the user; the authorization URL is among them. */
  say: (line: string) => void;
  /** Opens a URL in a browser; when it cannot, that is said and the printed URL still works. */
  openUrl: (url: string) => Promise<void>;
  browserTimeoutMs?: number;
  /** Where the state directory is found (`XDG_STATE_HOME`); the process's environment by default. */
  env?: StateEnv;
}

export interface LoginResult {
  /** How many tools the server lists with the new token. */
  tools: number;
  /** Where the tokens are kept. */
  file: string;
}

/** What a probe answers when the server asks for sampling or a form: no one is there to. */
const DECLINE: ServerRequestHandler = {
  sample: () => Promise.reject(new DeclinedRequest('mcp-chat auth does not answer sampling requests')),
  fillForm: () => Promise.resolve({ action: 'decline' }),
  visitUrl: () => Promise.resolve('decline'),
  urlCompleted: () => undefined,
};

function probeOptions(config: RemoteServerConfig, log: Logger): ConnectOptions {
  const ignore = (): void => undefined;
  return {
    log,
    timeoutMs: config.timeoutMs,
    onClosed: ignore,
    roots: [],
    onListChanged: ignore,
    onResourceUpdated: ignore,
    serverRequests: { server: config.name, handler: DECLINE, countSampling: ignore },
  };
}

async function countTools(config: RemoteServerConfig, provider: StoredOAuthProvider, log: Logger): Promise<number> {
  const { client } = await connectRemote(config, probeOptions(config, log), provider);
  try {
    const tools = await allPages(async (cursor) => {
      const page = await client.listTools(cursor ? { cursor } : undefined);
      return { items: page.tools, nextCursor: page.nextCursor };
    });
    return tools.length;
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** Waits for the browser's code of the authorization just shown, and has the SDK exchange it. */
async function finish(provider: StoredOAuthProvider, config: RemoteServerConfig, fetch: FetchLike): Promise<boolean> {
  const pending = provider.takePendingCode();
  if (!pending) return false;
  const authorizationCode = await pending;
  await auth(provider, { serverUrl: config.url, authorizationCode, fetchFn: fetch });
  return true;
}

/** Lists the tools; each time that needs an authorization, waits for it and tries again (the provider bounds how often). */
async function probeUntilAuthorised(
  config: RemoteServerConfig,
  provider: StoredOAuthProvider,
  fetch: FetchLike,
  log: Logger,
): Promise<number> {
  for (;;) {
    try {
      return await countTools(config, provider, log);
    } catch (error) {
      if (!(await finish(provider, config, fetch))) throw error;
    }
  }
}

/** An authorization asked for outright: a step-up scope a script was refused, or `"auth": "oauth"` with no 401. */
async function authorizeNow(
  provider: StoredOAuthProvider,
  config: RemoteServerConfig,
  fetch: FetchLike,
  scope: string | undefined,
): Promise<void> {
  const result = await auth(provider, { serverUrl: config.url, fetchFn: fetch, ...(scope ? { scope } : {}) });
  if (result === 'REDIRECT' && !(await finish(provider, config, fetch)))
    throw new Error('the authorization did not start');
}

function requireOAuth(config: RemoteServerConfig): OAuthSettings {
  const settings = effectiveOAuth(config);
  if (settings) return settings;
  const why =
    config.oauth?.mode === 'none' ? 'its entry says "auth": "none"' : 'its entry sends its own Authorization header';
  throw new Error(`${config.name} does not use OAuth: ${why}`);
}

export async function login(config: RemoteServerConfig, options: LoginOptions): Promise<LoginResult> {
  const settings = requireOAuth(config);
  const { log, say } = options;
  const store = oauthStoreFor(config, options.env);
  const { requestedScope, tokens } = store.read();
  // A redo starts from no tokens; the registered client and what discovery found are kept.
  // A first sign-in writes nothing until there is something to keep (one refused leaves no file).
  if (tokens) store.update((stored) => withoutKeys(stored, 'tokens', 'expiresAt'));
  const callback = settings.grant === 'client_credentials' ? undefined : await listenForCallback(settings.callbackPort);
  const remote = await createRemoteFetch(config);
  try {
    const onAuthorizationUrl = async (url: URL): Promise<void> => {
      say(`To authorise ${config.name}, open this URL (a browser is being opened): ${url.href}`);
      await options.openUrl(url.href).catch((error: unknown) => say(errorMessage(error)));
    };
    const timeoutMs = options.browserTimeoutMs ?? DEFAULT_BROWSER_TIMEOUT_MS;
    const mode = callback
      ? { kind: 'login' as const, callback, onAuthorizationUrl, timeoutMs }
      : { kind: 'script' as const };
    const provider = new StoredOAuthProvider({ config, settings, store, fetch: remote.fetch, log, mode });
    if (requestedScope) await authorizeNow(provider, config, remote.fetch, requestedScope);
    let tools = await probeUntilAuthorised(config, provider, remote.fetch, log);
    if (settings.mode === 'oauth' && !store.read().tokens) {
      await authorizeNow(provider, config, remote.fetch, undefined);
      tools = await countTools(config, provider, log);
    }
    store.update((stored) => withoutKeys(stored, 'requestedScope'));
    log.info({ tools }, 'OAuth authorisation done');
    return { tools, file: store.file };
  } finally {
    await callback?.close();
    await remote.close();
  }
}

/** Forgets a server's tokens and registered client, by name (its entry may be gone); false when nothing was stored. */
export function logout(server: string, env?: StateEnv): { forgot: boolean; file: string } {
  const store = oauthStoreFor({ name: server, url: '' }, env);
  return { forgot: store.forget(), file: store.file };
}
