/**
 * Where mcp-chat keeps what it remembers between runs (trusted directories, sessions, OAuth tokens,
 * input history): `$XDG_STATE_HOME/mcp-chat`, else `~/.local/state/mcp-chat`; and what it only
 * caches: `$XDG_CACHE_HOME/mcp-chat`, else `~/.cache/mcp-chat`.
 */
import os from 'node:os';
import path from 'node:path';

/** The environment variables read here; `process.env` fits. */
export type StateEnv = Readonly<Record<string, string | undefined>>;

/** An XDG base directory: `variable` when absolute (the spec ignores a relative one, which would depend on the working directory), else `fallback` under the home. */
function xdgDir(env: StateEnv, variable: string, fallback: string[]): string {
  const fromEnv = env[variable];
  const base =
    fromEnv !== undefined && path.isAbsolute(fromEnv) ? fromEnv : path.join(env.HOME || os.homedir(), ...fallback);
  return path.join(base, 'mcp-chat');
}

export function stateDir(env: StateEnv): string {
  return xdgDir(env, 'XDG_STATE_HOME', ['.local', 'state']);
}

/** What can be made again and is kept only to be faster (Node's compile cache): `$XDG_CACHE_HOME/mcp-chat`, else `~/.cache/mcp-chat`. */
export function cacheDir(env: StateEnv): string {
  return xdgDir(env, 'XDG_CACHE_HOME', ['.cache']);
}
