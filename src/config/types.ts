/**
 * The resolved configuration: what the rest of the program consumes after the file
 * has been found, validated, expanded and overridden by the environment and flags.
 */

import type { ThinkSetting, ToolMode } from '../vocabulary/types.js';

export interface OllamaSettings {
  /** Normalised base URL, e.g. `http://127.0.0.1:11434` (no trailing slash). */
  baseUrl: string;
  model: string;
  /** Per-request timeout for model calls, in milliseconds. */
  timeoutMs: number;
  /**
   * `ollama.num_ctx` (or `num_ctx` in `ollama.options`): sent with every request and budgeted by.
   * Unset, Ollama picks the context and the chatbot asks it which (engine/context-window.ts).
   */
  numCtx?: number;
  toolMode: ToolMode;
  /** Extra model options passed through to Ollama (`temperature`, `seed`, …). */
  options: Record<string, unknown>;
  /** `think` for a model that can think (`ollama.think`, `--think`); unset leaves it to Ollama. */
  think?: ThinkSetting;
}

interface ServerCommon {
  name: string;
  description?: string;
  /** Per-call timeout in milliseconds. */
  timeoutMs: number;
  /** Tools that never ask for approval. */
  alwaysAllow: string[];
  /** Tools offered on every request, even when only some of the catalogue fits its budget. */
  alwaysInclude: string[];
  /**
   * The user trusts what the server says of its tools: one that calls itself read-only (and not
   * destructive) runs without asking. From the entry's `trust`; by default only the servers
   * mcp-chat ships are trusted, since any server can claim anything.
   */
  trust: boolean;
  /** What happens when the server asks to use the user's model (`sampling`) or asks the user (`elicitation`). */
  sampling: ServerRequestPolicy;
  elicitation: ServerRequestPolicy;
  /** The entry's `includeTools` / `excludeTools`: tools of the server neither offered nor callable. */
  includeTools?: string[];
  excludeTools?: string[];
  /** From the entry's `circuitBreaker`; the defaults (3 failures, 30 s) when absent. */
  breaker?: { failures: number; cooldownMs: number };
}

/**
 * `ask`: the user is asked each time (a script declines); `allow`: it runs without asking (a
 * script too); `deny`: it is declined at once.
 */
export type ServerRequestPolicy = 'ask' | 'allow' | 'deny';

export interface StdioServerConfig extends ServerCommon {
  kind: 'stdio';
  /** Command, resolved against `cwd` when it is a relative path. */
  command: string;
  args: string[];
  /** Only the entry's own variables; the host adds the SDK's minimal default set. */
  env: Record<string, string>;
  /** Absolute working directory of the child. */
  cwd: string;
}

export interface RemoteServerConfig extends ServerCommon {
  kind: 'remote';
  /** `auto`: Streamable HTTP, falling back to SSE; `http` or `sse` pin one. */
  transport: 'auto' | 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
  /** Absolute path of an extra CA certificate (PEM) to trust for this server. */
  ca?: string;
  /** The entry's `auth` and `oauth`; absent: OAuth once the server answers 401, unless an Authorization header is set. */
  oauth?: OAuthSettings;
}

/** The entry's `auth` and `oauth`, expanded; paths absolute. */
export interface OAuthSettings {
  /** `oauth`: always (`"auth": "oauth"`); `none`: never; `auto`: once the server answers 401. */
  mode: 'oauth' | 'auto' | 'none';
  /** `authorization_code`: a person approves in a browser (`mcp-chat auth`); `client_credentials`: no person. */
  grant: 'authorization_code' | 'client_credentials';
  /** A pre-registered client; none: the client registers itself (dynamic client registration). */
  clientId?: string;
  clientSecret?: string;
  scopes?: string[];
  callbackPort?: number;
  clientMetadataUrl?: string;
  privateKeyFile?: string;
  signingAlgorithm?: string;
}

export type ServerConfig = StdioServerConfig | RemoteServerConfig;

/** A configured server that will not be started, and why (shown to the user). */
export interface DisabledServer {
  name: string;
  reason: string;
}

export interface ToolSettings {
  /** Read-only calls of one reply that run at once. */
  maxParallel: number;
  /** The share of `num_ctx` the tools offered in one request may take (0–1). */
  budgetShare: number;
  /** An Ollama embedding model that ranks tools alongside the lexical ranking; none by default. */
  embedModel?: string;
}

export interface AppConfig {
  /** Absolute path of the file that was loaded. */
  source: string;
  ollama: OllamaSettings;
  servers: ServerConfig[];
  disabled: DisabledServer[];
  /** Absolute directories offered to servers as roots: where mcp-chat started, then the config's `roots`. */
  roots: string[];
  /**
   * `maxMessages`: the most messages a request carries, if the user sets a bound (unset: as many as fit).
   * `compactAt`: the share of the history's room at which it is compacted before a turn, besides
   * when the next request would not fit.
   */
  history: { maxMessages?: number; compactAt?: number };
  tools: ToolSettings;
  /** `file` is where the log is read; rotated at `maxBytes`, keeping `files` files (unset: the logger's defaults). */
  logging: { level: string; file: string; maxBytes?: number; files?: number };
}
