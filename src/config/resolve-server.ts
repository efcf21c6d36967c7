/**
 * One validated server entry → the resolved `ServerConfig` the host starts, or the
 * reason it will not start (disabled, or a variable it needs is missing).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DisabledServer, ServerConfig } from './types.js';
import { type Env, expandField, expandMap } from './expand.js';
import type { ServerEntry } from './schema.js';

/** Per-call timeout when an entry sets none: long enough for a slow web API. */
const DEFAULT_SERVER_TIMEOUT_S = 60;

/**
 * Whether a command or argument names a file relative to the server's cwd, and so must
 * be made absolute: `./x`, `../x`, or a path with a `/` that exists there. Bare commands
 * (`node`, `npx`) and flags (`-y`, `--root=x`) are left alone.
 */
export function isRelativePathArgument(value: string, cwd: string): boolean {
  if (value.startsWith('-') || path.isAbsolute(value)) return false;
  if (value.startsWith('./') || value.startsWith('../')) return true;
  return value.includes('/') && !value.includes('://') && fs.existsSync(path.join(cwd, value));
}

function absolutise(value: string, cwd: string): string {
  return isRelativePathArgument(value, cwd) ? path.resolve(cwd, value) : value;
}

export interface ResolveContext {
  env: Env;
  /** Directory of the config file: relative `cwd` and `ca` resolve against it. */
  configDir: string;
}

export function resolveServer(name: string, entry: ServerEntry, context: ResolveContext): ServerConfig | DisabledServer {
  if (entry.disabled) return { name, reason: 'disabled in config' };
  const missing: string[] = [];
  const { env } = context;
  const common = {
    name,
    description: entry.description,
    timeoutMs: (entry.timeout ?? DEFAULT_SERVER_TIMEOUT_S) * 1000,
    alwaysAllow: entry.alwaysAllow ?? [],
  };
  const remote = entry.type === 'remote' || entry.type === 'http' || entry.type === 'sse' || (!entry.type && !entry.command);
  let server: ServerConfig;
  if (remote) {
    const ca = entry.ca === undefined ? undefined : path.resolve(context.configDir, expandField(entry.ca, env, 'ca', missing));
    server = {
      ...common,
      kind: 'remote',
      transport: entry.type === 'http' || entry.type === 'sse' ? entry.type : 'auto',
      url: expandField(entry.url ?? '', env, 'url', missing),
      headers: expandMap(entry.headers ?? {}, env, 'headers', missing),
      ...(ca === undefined ? {} : { ca }),
    };
  } else {
    const cwd = path.resolve(context.configDir, expandField(entry.cwd ?? '.', env, 'cwd', missing));
    server = {
      ...common,
      kind: 'stdio',
      command: absolutise(expandField(entry.command ?? '', env, 'command', missing), cwd),
      args: (entry.args ?? []).map((arg, index) => absolutise(expandField(arg, env, `args[${index}]`, missing), cwd)),
      env: expandMap(entry.env ?? {}, env, 'env', missing),
      cwd,
    };
  }
  if (missing.length > 0) return { name, reason: `missing environment variable ${missing.join(', ')}` };
  return server;
}

export function isDisabled(value: ServerConfig | DisabledServer): value is DisabledServer {
  return 'reason' in value;
}
