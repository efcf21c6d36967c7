/**
 * When a remote server is authorised with OAuth, and what is said when it cannot be: an entry's
 * own Authorization header wins over OAuth, a script never waits for a browser, and every failure
 * names the command that fixes it.
 */
import fsp from 'node:fs/promises';
import {
  type AddClientAuthentication,
  type OAuthDiscoveryState,
  UnauthorizedError,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { createPrivateKeyJwtAuth } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthSettings, RemoteServerConfig } from '../config/types.js';
import { errorMessage } from '../shared/errors.js';
import { AuthorisationNeeded } from './authorisation-needed.js';

/**
 * The OAuth an entry uses: what it says, else OAuth once the server answers 401, unless the entry
 * sends its own Authorization header (a token the user manages: a 401 means that token is wrong).
 */
export function effectiveOAuth(config: RemoteServerConfig): OAuthSettings | undefined {
  const sendsHeader = Object.keys(config.headers).some((name) => name.toLowerCase() === 'authorization');
  const settings: OAuthSettings = config.oauth ?? { mode: 'auto', grant: 'authorization_code' };
  if (settings.mode === 'none' || (settings.mode === 'auto' && sendsHeader)) return undefined;
  return settings;
}

/**
 * A connect that failed for want of authorisation, said as what to do; undefined for any other
 * failure. A 401 the SDK could not get past (the server refused the token it had just issued)
 * asks for a new login too.
 */
export function oauthFailure(error: unknown, config: RemoteServerConfig): Error | undefined {
  if (error instanceof AuthorisationNeeded) return error;
  if (!effectiveOAuth(config)) return undefined;
  if (error instanceof UnauthorizedError) return new AuthorisationNeeded(config.name);
  const code = error instanceof StreamableHTTPError || error instanceof SseError ? error.code : undefined;
  return code === 401
    ? new AuthorisationNeeded(config.name, 'the server refused the token it had just accepted')
    : undefined;
}

/** What is left for a server OAuth cannot be used with: a token the user gets some other way. */
const tokenInstead = (server: string): string =>
  `if the server takes a token instead, add "headers": { "Authorization": "Bearer \${TOKEN}" } to the "${server}" entry`;

/**
 * Why a server that has not refused what was stored still needs a person: it asks for more access
 * than the stored token has (a scope), or it publishes no OAuth metadata to authorise with.
 */
export function authorisationNeeded(
  server: string,
  hasTokens: boolean,
  discovery: OAuthDiscoveryState | undefined,
  authorizationUrl?: URL,
): AuthorisationNeeded {
  const scope = authorizationUrl?.searchParams.get('scope');
  if (hasTokens && scope) return new AuthorisationNeeded(server, `the server asks for more access: scope "${scope}"`);
  // A 401 from a server that publishes no OAuth metadata may well want a plain token instead.
  const advertised = discovery?.resourceMetadata !== undefined || discovery?.authorizationServerMetadata !== undefined;
  return new AuthorisationNeeded(
    server,
    advertised ? undefined : `it publishes no OAuth metadata; ${tokenInstead(server)}`,
  );
}

/** The PKCE method the SDK sends: OAuth 2.1 requires it of every client able to compute a SHA-256. */
const PKCE_METHOD = 'S256';

/**
 * Security: why an authorization-code flow must not start with this authorization server, if it
 * must not. A code that comes back to the loopback callback can be read by anything listening
 * there; PKCE is what makes it useless to them, and only the server's metadata says the server
 * checks it (MCP 2025-11-25, "Authorization Code Protection": no `code_challenge_methods_supported`,
 * or one without S256, and the client refuses). A server that publishes neither protected-resource
 * nor authorization-server metadata is a 2025-03-26 one on its default endpoints, which that
 * revision requires to take PKCE: the flow goes on, with S256, as it says.
 */
export function pkceRefusal(server: string, discovery: OAuthDiscoveryState): Error | undefined {
  const metadata = discovery.authorizationServerMetadata;
  const methods = metadata?.code_challenge_methods_supported;
  if (methods?.includes(PKCE_METHOD)) return undefined;
  if (!metadata && !discovery.resourceMetadata) return undefined;
  const why = !metadata
    ? 'publishes no authorization server metadata, so whether it checks PKCE cannot be known'
    : methods
      ? `offers PKCE only with ${methods.map((method) => JSON.stringify(method)).join(', ') || 'no method'}, not ${PKCE_METHOD}`
      : 'does not say it supports PKCE (its metadata has no code_challenge_methods_supported)';
  return new Error(
    `refused to sign in: the authorization server ${discovery.authorizationServerUrl} ${why}, ` +
      `and without PKCE (${PKCE_METHOD}) an intercepted authorization code could be used by someone else. ` +
      `Nothing was opened or stored. Ask the server's operator to enable PKCE with ${PKCE_METHOD}; ${tokenInstead(server)}`,
  );
}

/** `private_key_jwt` client authentication from the entry's key file (SEP-1046), signed by the SDK's helper. */
export function privateKeyJwt(settings: OAuthSettings): AddClientAuthentication | undefined {
  const { privateKeyFile, clientId } = settings;
  if (privateKeyFile === undefined || clientId === undefined) return undefined;
  return async (headers, params, url, metadata) => {
    let privateKey: string;
    try {
      privateKey = await fsp.readFile(privateKeyFile, 'utf8');
    } catch (error) {
      throw new Error(`cannot read the private key "${privateKeyFile}": ${errorMessage(error)}`, { cause: error });
    }
    const alg = settings.signingAlgorithm ?? 'RS256';
    await createPrivateKeyJwtAuth({ issuer: clientId, subject: clientId, privateKey, alg })(
      headers,
      params,
      url,
      metadata,
    );
  };
}
