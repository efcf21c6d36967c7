/**
 * Opens a session to a remote MCP server: Streamable HTTP first, and the legacy SSE
 * transport when the server answers that request with a 4xx that is not about
 * authentication and the entry does not pin a transport. The whole connect, fallback
 * included, is bounded by `timeoutMs`; failures never echo credentials.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { RemoteServerConfig } from '../config/types.js';
import { errorMessage } from '../shared/errors.js';
import { type Logger, redactSecrets } from '../shared/log.js';
import { type Connection, type ConnectOptions, createClient } from './connection.js';
import { effectiveOAuth, oauthFailure } from './oauth-policy.js';
import { StoredOAuthProvider } from './oauth-provider.js';
import { watchScopeChallenges } from './oauth-scope.js';
import { oauthStoreFor } from './oauth-store.js';
import { createRemoteFetch } from './remote-fetch.js';
import { CREDENTIAL_NAME, displayUrl, hideSecrets } from './server-secrets.js';
import { SessionRecoveringTransport } from './session-recovery.js';

type TransportKind = 'http' | 'sse';

interface Attempt {
  config: RemoteServerConfig;
  options: ConnectOptions;
  fetch: FetchLike;
  /** `Date.now()` by which the whole connect must have succeeded. */
  deadline: number;
  /** OAuth for this server (the SDK asks it for tokens and runs the flow on a 401); none: headers only. */
  authProvider?: OAuthClientProvider;
}

function createTransport(kind: TransportKind, { config, options, fetch, authProvider }: Attempt): Transport {
  const url = new URL(config.url);
  const requestInit = { headers: config.headers };
  if (kind === 'sse') return new SSEClientTransport(url, { requestInit, fetch, authProvider });
  // A restarted server forgets its sessions; this transport opens a new one instead of failing every call.
  return new SessionRecoveringTransport({
    create: () => new StreamableHTTPClientTransport(url, { requestInit, fetch, authProvider }),
    log: options.log,
    timeoutMs: options.timeoutMs,
  });
}

/** A 4xx from a Streamable HTTP request other than 401/403 means "try SSE" (MCP back-compat rule). */
function wantsSseFallback(error: unknown): boolean {
  if (!(error instanceof StreamableHTTPError) || error.code === undefined) return false;
  return error.code >= 400 && error.code < 500 && error.code !== 401 && error.code !== 403;
}

async function open(kind: TransportKind, attempt: Attempt): Promise<Client> {
  const remaining = attempt.deadline - Date.now();
  const seconds = attempt.options.timeoutMs / 1000;
  const timeoutMessage = `no answer from ${displayUrl(attempt.config.url)} within ${seconds} s`;
  if (remaining <= 0) throw new Error(timeoutMessage);
  const client = createClient(attempt.options, attempt.config);
  let timer: NodeJS.Timeout | undefined;
  // The SDK bounds the initialize request, but not the SSE stream it opens first: bound the whole step here.
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(timeoutMessage)), remaining);
  });
  try {
    await Promise.race([client.connect(createTransport(kind, attempt), { timeout: remaining }), timedOut]);
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return client;
}

async function openWithFallback(attempt: Attempt): Promise<Client> {
  const { config, options } = attempt;
  if (config.transport !== 'auto') return open(config.transport, attempt);
  try {
    return await open('http', attempt);
  } catch (error) {
    if (!wantsSseFallback(error)) throw error;
    options.log.info({ url: displayUrl(config.url) }, 'Streamable HTTP refused; falling back to SSE');
    return open('sse', attempt);
  }
}

/** 401/403 at connect: say it is about credentials and which header carried them, never their value. */
function authenticationFailure(error: unknown, config: RemoteServerConfig): Error | undefined {
  const code = error instanceof StreamableHTTPError || error instanceof SseError ? error.code : undefined;
  if (code !== 401 && code !== 403) return undefined;
  const status = code === 401 ? '401 Unauthorized' : '403 Forbidden';
  const credentialHeaders = Object.keys(config.headers).filter((name) => CREDENTIAL_NAME.test(name));
  const hint =
    credentialHeaders.length > 0
      ? `the server rejected the credentials in the ${credentialHeaders.map((name) => `"${name}"`).join(', ')} header; ` +
        'check the token in your config or the environment variable it comes from (e.g. "Bearer ${GITHUB_TOKEN}")'
      : `no Authorization header was sent; add "headers": { "Authorization": "Bearer \${TOKEN}" } to the "${config.name}" entry`;
  return new Error(`authentication problem: ${displayUrl(config.url)} answered ${status}; ${hint}`);
}

function explainConnectFailure(error: unknown, config: RemoteServerConfig): Error {
  // Security: SDK errors quote the response body and the URL; anything token-shaped goes too.
  return (
    oauthFailure(error, config) ??
    authenticationFailure(error, config) ??
    new Error(redactSecrets(hideSecrets(errorMessage(error), config)))
  );
}

/** The provider every connection of a script or the chat uses: tokens from the store, never a browser. */
function scriptOAuthProvider(
  config: RemoteServerConfig,
  fetch: FetchLike,
  log: Logger,
): StoredOAuthProvider | undefined {
  const settings = effectiveOAuth(config);
  if (!settings) return undefined;
  const store = oauthStoreFor(config);
  return new StoredOAuthProvider({ config, settings, store, fetch, log, mode: { kind: 'script' } });
}

/** `authProvider`: the login's own (`mcp-chat auth`); by default the script's, which never waits for a browser. */
export async function connectRemote(
  config: RemoteServerConfig,
  options: ConnectOptions,
  authProvider?: StoredOAuthProvider,
): Promise<Connection> {
  const remote = await createRemoteFetch(config);
  const oauth = authProvider ?? scriptOAuthProvider(config, remote.fetch, options.log);
  // The provider hears of a 403 for want of scope before the SDK acts on it (it would refresh, not step up).
  const fetch = oauth ? watchScopeChallenges(remote.fetch, () => oauth.stepUpChallenged()) : remote.fetch;
  let client: Client;
  try {
    const deadline = Date.now() + options.timeoutMs;
    client = await openWithFallback({ config, options, fetch, deadline, authProvider: oauth });
  } catch (error) {
    await remote.close().catch(() => undefined);
    throw explainConnectFailure(error, config);
  }
  client.onclose = () => {
    void remote.close().catch(() => undefined);
    options.onClosed();
  };
  return { client, stderrTail: () => '' };
}
