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
    advertised
      ? undefined
      : `it publishes no OAuth metadata; if it takes a token instead, add "headers": { "Authorization": "Bearer \${TOKEN}" } to the "${server}" entry`,
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
