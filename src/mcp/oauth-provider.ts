/**
 * mcp-chat's `OAuthClientProvider`. The SDK's `auth()` runs the protocol (discovery, registration,
 * PKCE, code exchange, refresh); this provider keeps what it produces in the OAuth store, refreshes
 * a token shortly before it expires, and hides every token it handles from logs and screens.
 * Two modes: `login` (`mcp-chat auth`, `/auth`: the authorization URL is shown and opened, the code
 * comes back to the loopback callback) and `script` (every other use: a browser is never waited
 * for; a server that needs a person is an `AuthorisationNeeded` error, and the rest goes on).
 */
import crypto from 'node:crypto';
import {
  type AddClientAuthentication,
  auth,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
} from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { OAuthSettings, RemoteServerConfig } from '../config/types.js';
import { errorMessage } from '../shared/errors.js';
import type { Logger } from '../shared/log.js';
import type { AuthorizationCallback } from './oauth-callback.js';
import { AuthorisationNeeded } from './authorisation-needed.js';
import { authorisationNeeded, pkceRefusal, privateKeyJwt } from './oauth-policy.js';
import { rememberStepUp, withGrantedScopes } from './oauth-scope.js';
import { type OAuthStore, type StoredOAuth, withoutKeys } from './oauth-store.js';
import { addSecretValues, hideSecrets } from './server-secrets.js';

export interface LoginMode {
  kind: 'login';
  callback: AuthorizationCallback;
  /** Shows the authorization URL (always) and opens it in a browser. */
  onAuthorizationUrl: (url: URL) => Promise<void>;
  /** How long the browser's answer is waited for. */
  timeoutMs: number;
}

export type ProviderMode = LoginMode | { kind: 'script' };

export interface ProviderOptions {
  config: RemoteServerConfig;
  settings: OAuthSettings;
  store: OAuthStore;
  /** The server's fetch (its CA, its bounded bodies): discovery and token requests go through it too. */
  fetch: FetchLike;
  log: Logger;
  mode: ProviderMode;
}

/** Authorizations one login goes through before the server is said to want more than it grants. */
export const MAX_AUTHORIZATIONS = 3;
/** A token this close to its expiry is refreshed before it is sent, not after a 401. */
const REFRESH_MARGIN_MS = 60_000;
/** A script never receives a code; this only makes the SDK take the authorization-code path to its redirect. */
const SCRIPT_REDIRECT_URL = 'http://127.0.0.1/callback';

export class StoredOAuthProvider implements OAuthClientProvider {
  readonly clientMetadataUrl: string | undefined;
  readonly addClientAuthentication: AddClientAuthentication | undefined;
  private verifier: string | undefined;
  /** The code the browser will bring for the state just handed out, armed once the URL is shown (login mode). */
  private expecting: Promise<string> | undefined;
  private pendingCode: Promise<string> | undefined;
  /** The scope the authorization just shown asked for: what its token has when the answer does not say. */
  private asked: string | undefined;
  /** The server refused a request for want of scope: the next authorization must be a new one, with more. */
  private steppingUp = false;
  private authorizations = 0;
  private refreshingEarly = false;
  /** What discovery found in this process (a script keeps it here only). */
  private discovered: OAuthDiscoveryState | undefined;
  /** The authorization server refused what was stored (revoked, expired, client gone). */
  private refused = false;

  constructor(private readonly options: ProviderOptions) {
    this.clientMetadataUrl = options.settings.clientMetadataUrl;
    this.addClientAuthentication = privateKeyJwt(options.settings);
  }

  private get name(): string {
    return this.options.config.name;
  }

  private get clientCredentials(): boolean {
    return this.options.settings.grant === 'client_credentials';
  }

  get redirectUrl(): string | undefined {
    if (this.clientCredentials) return undefined;
    const { mode, store } = this.options;
    if (mode.kind === 'login') return mode.callback.redirectUrl;
    const client = store.read().client;
    return (client && 'redirect_uris' in client ? client.redirect_uris[0] : undefined) ?? SCRIPT_REDIRECT_URL;
  }

  get clientMetadata(): OAuthClientMetadata {
    const { settings } = this.options;
    const redirectUrl = this.redirectUrl;
    const scope = settings.scopes?.join(' ');
    return {
      client_name: 'mcp-chat',
      redirect_uris: redirectUrl ? [redirectUrl] : [],
      grant_types: this.clientCredentials ? ['client_credentials'] : ['authorization_code', 'refresh_token'],
      response_types: this.clientCredentials ? [] : ['code'],
      // A terminal program keeps no secret a user could not read: a public client, protected by PKCE (RFC 8252).
      token_endpoint_auth_method: this.clientCredentials
        ? settings.privateKeyFile
          ? 'private_key_jwt'
          : 'client_secret_basic'
        : 'none',
      ...(scope ? { scope } : {}),
    };
  }

  state(): string {
    const state = crypto.randomBytes(24).toString('base64url');
    const { mode } = this.options;
    if (mode.kind === 'login') this.expecting = mode.callback.expect(state, mode.timeoutMs);
    return state;
  }

  /** The code of the authorization whose URL was just shown, if one was (login mode); each is taken once. */
  takePendingCode(): Promise<string> | undefined {
    const pending = this.pendingCode;
    this.pendingCode = undefined;
    return pending;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    // Discovery may come from the store, from an earlier sign-in: checked here too, before any registration.
    this.refuseWithoutPkce(this.discoveryState());
    const { settings, store, mode } = this.options;
    if (settings.clientId !== undefined)
      return {
        client_id: settings.clientId,
        ...(settings.clientSecret ? { client_secret: settings.clientSecret } : {}),
      };
    const client = store.read().client;
    // A script registers no client: registering is the first step of an authorization only a person can finish.
    // (A client id metadata URL the server takes is no registration: the SDK uses it as the id.)
    const urlAsId =
      this.clientMetadataUrl !== undefined &&
      this.discoveryState()?.authorizationServerMetadata?.client_id_metadata_document_supported === true;
    if (!client && mode.kind === 'script' && !urlAsId) throw this.needsAuthorisation();
    // Registered for another callback port (a free one each login): register again rather than be refused.
    if (
      client &&
      mode.kind === 'login' &&
      'redirect_uris' in client &&
      !client.redirect_uris.includes(mode.callback.redirectUrl)
    )
      return undefined;
    this.remember([client?.client_secret]);
    return client;
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    // A configured client is the config's; the SDK's copy with its issuer stamped adds nothing.
    if (this.options.settings.clientId !== undefined) return;
    this.remember([client.client_secret]);
    this.options.store.update((stored) => ({ ...stored, client }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    const stored = this.options.store.read();
    if (!stored.tokens) return undefined;
    const { refresh_token: refreshToken, ...withoutRefresh } = stored.tokens;
    this.remember([stored.tokens.access_token, refreshToken, stored.tokens.id_token]);
    // The SDK refreshes whenever it holds a refresh token, and a refreshed token keeps its old scope.
    if (this.steppingUp) return withoutRefresh;
    const expiring = stored.expiresAt !== undefined && stored.expiresAt - Date.now() < REFRESH_MARGIN_MS;
    if (!expiring || !refreshToken || this.refreshingEarly) return stored.tokens;
    await this.refreshEarly();
    return this.options.store.read().tokens;
  }

  /** A 403 `insufficient_scope` has just come (see watchScopeChallenges): the SDK's step-up must authorize anew. */
  stepUpChallenged(): void {
    this.steppingUp = true;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.steppingUp = false;
    this.remember([tokens.access_token, tokens.refresh_token, tokens.id_token]);
    const expiresAt = tokens.expires_in === undefined ? undefined : Date.now() + tokens.expires_in * 1000;
    this.options.store.update((stored) => {
      // RFC 6749 §5.1, §6: a token answer leaves the scope out when it is the one asked for, or the one refreshed.
      const scope = tokens.scope ?? this.asked ?? stored.tokens?.scope;
      const next = { ...stored, tokens: scope === undefined ? tokens : { ...tokens, scope } };
      delete next.expiresAt;
      return expiresAt === undefined ? next : { ...next, expiresAt };
    });
    this.options.log.info({ scope: tokens.scope, expiresIn: tokens.expires_in }, 'OAuth tokens stored');
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const { mode } = this.options;
    this.steppingUp = false;
    if (mode.kind === 'script' || this.refreshingEarly) {
      if (mode.kind === 'script') rememberStepUp(this.options.store, authorizationUrl);
      throw this.needsAuthorisation(authorizationUrl);
    }
    this.authorizations += 1;
    if (this.authorizations > MAX_AUTHORIZATIONS) {
      const scope = authorizationUrl.searchParams.get('scope');
      throw new Error(
        `the server still refuses after ${MAX_AUTHORIZATIONS} authorisations` +
          `${scope ? ` (it asks for scope "${scope}")` : ''}: it asks for more access than it grants`,
      );
    }
    // A step-up within this sign-in keeps what it already granted (the login started from no tokens).
    const url = withGrantedScopes(authorizationUrl, this.options.store.read().tokens?.scope);
    this.asked = url.searchParams.get('scope') ?? undefined;
    await mode.onAuthorizationUrl(url);
    this.pendingCode = this.expecting;
    this.expecting = undefined;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error('no authorization is under way (no PKCE code verifier)');
    return this.verifier;
  }

  prepareTokenRequest(scope?: string): URLSearchParams | undefined {
    if (!this.clientCredentials) return undefined;
    return new URLSearchParams({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) });
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'verifier') {
      this.verifier = undefined;
      return;
    }
    if (scope !== 'discovery') this.refused = true;
    this.options.log.info({ scope }, 'the authorization server refused stored OAuth credentials; forgotten');
    const drop: Record<typeof scope, (keyof StoredOAuth)[]> = {
      all: ['client', 'tokens', 'expiresAt', 'discovery'],
      client: ['client'],
      tokens: ['tokens', 'expiresAt'],
      discovery: ['discovery'],
    };
    this.options.store.update((stored) => withoutKeys(stored, ...drop[scope]));
  }

  saveDiscoveryState(discovery: OAuthDiscoveryState): void {
    this.refuseWithoutPkce(discovery);
    this.discovered = discovery;
    // A script that was refused leaves no file behind: only a server with a client of ours keeps its discovery.
    const { mode, store } = this.options;
    if (mode.kind === 'login' || store.read().client) store.update((stored) => ({ ...stored, discovery }));
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.options.store.read().discovery ?? this.discovered;
  }

  /** Uses the refresh token now; on failure the old token is sent and a 401 brings the SDK's own refresh. */
  private async refreshEarly(): Promise<void> {
    const { config, fetch, log } = this.options;
    this.refreshingEarly = true;
    try {
      await auth(this, { serverUrl: config.url, fetchFn: fetch });
      log.info('refreshed the OAuth access token before expiry');
    } catch (error) {
      log.info({ reason: hideSecrets(errorMessage(error), config) }, 'OAuth token not refreshed early');
    } finally {
      this.refreshingEarly = false;
    }
  }

  /** Security: a person is sent to approve access only where PKCE is known to be checked (see pkceRefusal). */
  private refuseWithoutPkce(discovery: OAuthDiscoveryState | undefined): void {
    const refusal = this.options.mode.kind === 'login' && discovery ? pkceRefusal(this.name, discovery) : undefined;
    if (refusal) throw refusal;
  }

  private needsAuthorisation(url?: URL): AuthorisationNeeded {
    if (this.refused)
      return new AuthorisationNeeded(this.name, 'the server refused the stored authorisation: revoked or expired');
    const { tokens } = this.options.store.read();
    return authorisationNeeded(this.name, tokens !== undefined, this.discoveryState(), url);
  }

  private remember(values: (string | undefined)[]): void {
    addSecretValues(this.options.config, values);
  }
}
