/**
 * Where a remote server's OAuth state lives between runs: one file per server under
 * `$XDG_STATE_HOME/mcp-chat/oauth/`, mode 0600, written whole. It holds the registered client,
 * the tokens (with when the access token expires), what discovery found, and the scope the
 * server last asked for when nobody was there to approve it. The file is bound to the server's
 * URL: an entry pointed at another server starts afresh. It is read on every use, so tokens a
 * `mcp-chat auth` in another terminal stores reach a running chat on its next request.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import {
  OAuthClientInformationFullSchema,
  OAuthClientInformationSchema,
  type OAuthClientInformationMixed,
  OAuthTokensSchema,
  type OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import * as z from 'zod';
import { writeFileAtomic } from '../shared/atomic-write.js';
import { stateDir, type StateEnv } from '../shared/state-dir.js';

export interface StoredOAuth {
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** `Date.now()` at which the access token expires, from `expires_in` when it was saved. */
  expiresAt?: number;
  discovery?: OAuthDiscoveryState;
  /** The scope a script was refused for (a step-up), asked for by the next `mcp-chat auth`. */
  requestedScope?: string;
}

const FORMAT_VERSION = 1;
/** What the config allows as a server name (schema.ts), and so a safe file name. */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** The file's frame; the SDK's own schemas check the client and the tokens. */
const fileSchema = z.looseObject({
  version: z.literal(FORMAT_VERSION),
  serverUrl: z.string(),
  client: z.unknown().optional(),
  tokens: z.unknown().optional(),
  expiresAt: z.number().optional(),
  discovery: z.looseObject({ authorizationServerUrl: z.string() }).optional(),
  requestedScope: z.string().optional(),
});

/** The directory of the OAuth files, found from the environment mcp-chat was started with. */
export function oauthDir(env: StateEnv = process.env): string {
  return path.join(stateDir(env), 'oauth');
}

export class OAuthStore {
  readonly file: string;

  constructor(
    dir: string,
    server: string,
    private readonly serverUrl: string,
  ) {
    // Security: the name becomes a file name; nothing that could climb out of the directory.
    if (!SAFE_NAME.test(server)) throw new Error(`not a server name: ${JSON.stringify(server)}`);
    this.file = path.join(dir, `${server.toLowerCase()}.json`);
  }

  /** Nothing when the file is missing, damaged, or made for another URL. */
  read(): StoredOAuth {
    let raw: unknown;
    try {
      raw = JSON.parse(fs.readFileSync(this.file, 'utf8'));
    } catch {
      return {};
    }
    const parsed = fileSchema.safeParse(raw);
    if (!parsed.success || parsed.data.serverUrl !== this.serverUrl) return {};
    const { client, tokens, expiresAt, discovery, requestedScope } = parsed.data;
    const fullClient = OAuthClientInformationFullSchema.safeParse(client);
    const plainClient = OAuthClientInformationSchema.safeParse(client);
    const validTokens = OAuthTokensSchema.safeParse(tokens);
    return {
      ...(fullClient.success ? { client: fullClient.data } : plainClient.success ? { client: plainClient.data } : {}),
      ...(validTokens.success ? { tokens: validTokens.data } : {}),
      ...(expiresAt === undefined ? {} : { expiresAt }),
      ...(discovery === undefined ? {} : { discovery: discovery as OAuthDiscoveryState }),
      ...(requestedScope === undefined ? {} : { requestedScope }),
    };
  }

  update(change: (stored: StoredOAuth) => StoredOAuth): void {
    const next = change(this.read());
    // Security: tokens are credentials; writeFileAtomic makes the file 0600 in a 0700 directory.
    writeFileAtomic(
      this.file,
      `${JSON.stringify({ version: FORMAT_VERSION, serverUrl: this.serverUrl, ...next }, null, 2)}\n`,
    );
  }

  /** Removes the file; false when there was none. */
  forget(): boolean {
    if (!fs.existsSync(this.file)) return false;
    fs.rmSync(this.file, { force: true });
    return true;
  }
}

/** `stored` without `keys` (what a redo, a logout of tokens or a refused credential drops). */
export function withoutKeys(stored: StoredOAuth, ...keys: (keyof StoredOAuth)[]): StoredOAuth {
  const kept = { ...stored };
  for (const key of keys) delete kept[key];
  return kept;
}

export function oauthStoreFor(config: { name: string; url: string }, env: StateEnv = process.env): OAuthStore {
  return new OAuthStore(oauthDir(env), config.name, config.url);
}
