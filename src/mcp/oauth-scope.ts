/**
 * Scopes across a step-up. A server that refuses a request for want of scope names what that
 * request needs (RFC 6750 §3.1), not everything granted so far; a new authorization for that alone
 * would trade the old access for the new (listing the tools for calling one, and back, at every
 * sign-in). So a step-up asks for the union of the scopes already granted and those challenged
 * (SEP-2350), as the conformance suite's example client does.
 */
import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { OAuthStore } from './oauth-store.js';

/** Each scope once, in the order first met; undefined when there is none. */
export function unionScopes(...scopes: (string | undefined)[]): string | undefined {
  const all = new Set(scopes.flatMap((scope) => scope?.split(' ').filter((one) => one !== '') ?? []));
  return all.size > 0 ? [...all].join(' ') : undefined;
}

/** The authorization URL of a step-up, asking for `granted` as well; one that names no scope is left to the server. */
export function withGrantedScopes(url: URL, granted: string | undefined): URL {
  const challenged = url.searchParams.get('scope');
  const wanted = challenged ? unionScopes(granted, challenged) : undefined;
  if (wanted === undefined || wanted === challenged) return url;
  const widened = new URL(url);
  widened.searchParams.set('scope', wanted);
  return widened;
}

/** A step-up a script cannot do: the next `mcp-chat auth` asks for the challenged scope and the stored token's. */
export function rememberStepUp(store: OAuthStore, url: URL): void {
  const scope = url.searchParams.get('scope');
  if (!scope) return;
  store.update((stored) =>
    stored.tokens ? { ...stored, requestedScope: unionScopes(stored.tokens.scope, scope) ?? scope } : stored,
  );
}

/**
 * The transport's fetch, calling `onChallenge` on each 403 `insufficient_scope` before the SDK sees
 * it. The SDK answers one with `auth()`, which refreshes when there is a refresh token, and a
 * refreshed token has the scope it had: the provider must know to authorize anew instead
 * (modelcontextprotocol/typescript-sdk#2255).
 */
export function watchScopeChallenges(fetch: FetchLike, onChallenge: () => void): FetchLike {
  return async (url, init) => {
    const response = await fetch(url, init);
    if (response.status === 403 && extractWWWAuthenticateParams(response).error === 'insufficient_scope') onChallenge();
    return response;
  };
}
