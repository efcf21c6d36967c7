/**
 * One validated server entry → the resolved `ServerConfig` the host starts, or the reason
 * it will not start (disabled in the file, a variable it needs is unset, its cwd is gone).
 * Problems of the file itself (a malformed `${…}`, a URL that is not http(s)) are thrown.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../shared/errors.js';
import { PACKAGE_ROOT } from '../shared/paths.js';
import { describeMissing, type Env, EntryExpander } from './expand.js';
import { formatJsonPath } from './issues.js';
import { isRemoteEntry, type ServerEntry } from './schema.js';
import type { DisabledServer, OAuthSettings, RemoteServerConfig, ServerConfig, StdioServerConfig } from './types.js';

/** Per-call timeout when an entry sets none: long enough for a slow web API. */
const DEFAULT_SERVER_TIMEOUT_S = 60;

/**
 * The path rule for a local server's `command` and `args`: a value names a file relative
 * to the server's cwd, and is made absolute, when it starts with `./` or `../`, or when it
 * contains a `/` and that file exists there (`dist/servers/calculator/main.js`).
 * Bare commands (`node`, `npx`, `uvx`), flags (`-y`, `--root=./x`), URLs, package
 * names that are not files (`@scope/pkg`) and absolute paths are left as they are.
 */
export function resolvePathArgument(
  value: string,
  cwd: string,
  exists: (file: string) => boolean = fs.existsSync,
): string {
  if (value.startsWith('-') || path.isAbsolute(value)) return value;
  const explicit = value.startsWith('./') || value.startsWith('../');
  const relativeFile = value.includes('/') && !value.includes('://') && exists(path.join(cwd, value));
  return explicit || relativeFile ? path.resolve(cwd, value) : value;
}

export interface ResolveContext {
  env: Env;
  /** The config file: relative `cwd` and `ca` resolve against its directory; errors name it. */
  source: string;
  /** `mcpServers` or `mcp_servers`, whichever the file used, for error paths. */
  serversKey: string;
}

export function resolveServer(
  name: string,
  entry: ServerEntry,
  context: ResolveContext,
): ServerConfig | DisabledServer {
  if (entry.disabled === true) return { name, reason: 'disabled in config' };
  const expander = new EntryExpander(context.env);
  const server = isRemoteEntry(entry)
    ? remoteServer(name, entry, expander, context)
    : stdioServer(name, entry, expander, path.dirname(context.source));
  const fieldPath = (where: string): string => `${formatJsonPath([context.serversKey, name])}.${where}`;
  const malformed = expander.problems.filter((problem) => problem.kind === 'malformed');
  if (malformed.length > 0) {
    const lines = malformed.map(
      (p) => `  ${fieldPath(p.where)}: malformed variable reference ${p.text}: use \${NAME} or \${NAME:-default}`,
    );
    throw new ConfigError(`invalid config ${context.source}:\n${lines.join('\n')}`);
  }
  const missing = describeMissing(expander.problems);
  if (missing !== undefined) return { name, reason: missing };
  if (server.kind === 'remote') checkUrl(server.url, entry.url ?? '', fieldPath('url'), context.source);
  if (server.kind === 'stdio' && !isDirectory(server.cwd))
    return { name, reason: `working directory not found: ${server.cwd}` };
  return server;
}

/** Seconds from the file to timer milliseconds; a tiny positive timeout still means 1 ms, never 0 (no timeout at all to some timers). */
export function secondsToMs(seconds: number): number {
  return Math.max(1, Math.round(seconds * 1000));
}

function common(
  name: string,
  entry: ServerEntry,
): Pick<
  ServerConfig,
  | 'name'
  | 'description'
  | 'timeoutMs'
  | 'alwaysAllow'
  | 'alwaysInclude'
  | 'trust'
  | 'sampling'
  | 'elicitation'
  | 'breaker'
> {
  const breaker = entry.circuitBreaker;
  return {
    name,
    ...(entry.description === undefined ? {} : { description: entry.description }),
    timeoutMs: secondsToMs(entry.timeout ?? DEFAULT_SERVER_TIMEOUT_S),
    alwaysAllow: entry.alwaysAllow ?? [],
    alwaysInclude: entry.alwaysInclude ?? [],
    trust: entry.trust ?? false,
    sampling: entry.sampling ?? 'ask',
    elicitation: entry.elicitation ?? 'ask',
    ...(entry.includeTools && { includeTools: entry.includeTools }),
    ...(entry.excludeTools && { excludeTools: entry.excludeTools }),
    ...(breaker && {
      breaker: {
        failures: breaker.failures ?? DEFAULT_BREAKER.failures,
        cooldownMs: breaker.cooldown === undefined ? DEFAULT_BREAKER.cooldownMs : secondsToMs(breaker.cooldown),
      },
    }),
  };
}

/** A server is left alone after this many failed calls in a row, for this long at first. */
export const DEFAULT_BREAKER = { failures: 3, cooldownMs: 30_000 };

/** The real path of `file`, or undefined when it does not exist. */
function realPath(file: string): string | undefined {
  try {
    return fs.realpathSync(file);
  } catch {
    return undefined;
  }
}

/** Where the servers mcp-chat ships are built, as a real path: a stdio entry that runs one of them is ours. */
const SHIPPED_SERVERS_DIR = path.join(realPath(PACKAGE_ROOT) ?? PACKAGE_ROOT, 'dist', 'servers') + path.sep;

/** Variables that make node (or the loader) run other code before the script: with any of them, it is not ours. */
const LOADER_VARIABLE = /^(NODE_OPTIONS|NODE_PATH|LD_\w+|DYLD_\w+)$/;

/**
 * True when the entry runs one of mcp-chat's own servers and nothing else: `node` (found on the
 * PATH, which no project can set) or this very node binary, then a script whose real path lies in
 * the package's `dist/servers/`, with no flag before it and no loader variable in its env.
 * Security: a prefix or suffix of the text proves nothing: `bash -c … <our path>`, `--import x.js`,
 * `<pkg>/dist/servers/../../elsewhere.js` or a project's own `dist/servers/` run other code.
 */
export function runsShippedServer(config: Pick<StdioServerConfig, 'command' | 'args' | 'env'>): boolean {
  // Only absolute paths are compared: a relative one would be looked up elsewhere (the PATH, the server's cwd).
  const absoluteReal = (file: string | undefined): string | undefined =>
    file !== undefined && path.isAbsolute(file) ? realPath(file) : undefined;
  const node = config.command === 'node' || absoluteReal(config.command) === realPath(process.execPath);
  const script = absoluteReal(config.args[0]);
  const loader = Object.keys(config.env).some((name) => LOADER_VARIABLE.test(name));
  return node && !loader && script !== undefined && script.startsWith(SHIPPED_SERVERS_DIR);
}

function stdioServer(name: string, entry: ServerEntry, expander: EntryExpander, configDir: string): StdioServerConfig {
  const cwd = path.resolve(configDir, expander.field(entry.cwd ?? '.', 'cwd'));
  const command = resolvePathArgument(expander.field(entry.command ?? '', 'command'), cwd);
  const args = (entry.args ?? []).map((arg, index) => resolvePathArgument(expander.field(arg, `args[${index}]`), cwd));
  const env = expander.map(entry.env ?? {}, 'env');
  return {
    ...common(name, entry),
    kind: 'stdio',
    command,
    args,
    env,
    cwd,
    trust: entry.trust ?? runsShippedServer({ command, args, env }),
  };
}

function remoteServer(
  name: string,
  entry: ServerEntry,
  expander: EntryExpander,
  context: ResolveContext,
): RemoteServerConfig {
  const ca =
    entry.ca === undefined ? undefined : path.resolve(path.dirname(context.source), expander.field(entry.ca, 'ca'));
  return {
    ...common(name, entry),
    kind: 'remote',
    transport: entry.type === 'http' || entry.type === 'sse' ? entry.type : 'auto',
    url: expander.field(entry.url ?? '', 'url'),
    headers: expander.map(entry.headers ?? {}, 'headers'),
    ...(ca === undefined ? {} : { ca }),
    ...oauthSettings(entry, expander, path.dirname(context.source)),
  };
}

/** The entry's `auth` and `oauth`, when it has either; without them the connector decides (see oauth-settings.ts). */
function oauthSettings(
  entry: ServerEntry,
  expander: EntryExpander,
  configDir: string,
): Pick<RemoteServerConfig, 'oauth'> {
  if (entry.auth === undefined && entry.oauth === undefined) return {};
  const oauth = entry.oauth ?? {};
  const field = (value: string | undefined, where: string): string | undefined =>
    value === undefined ? undefined : expander.field(value, `oauth.${where}`);
  const keyFile = field(oauth.privateKeyFile, 'privateKeyFile');
  const settings: OAuthSettings = {
    mode: entry.auth ?? 'auto',
    grant: oauth.grant ?? 'authorization_code',
    clientId: field(oauth.clientId, 'clientId'),
    clientSecret: field(oauth.clientSecret, 'clientSecret'),
    scopes: oauth.scopes,
    callbackPort: oauth.callbackPort,
    clientMetadataUrl: oauth.clientMetadataUrl,
    privateKeyFile: keyFile === undefined ? undefined : path.resolve(configDir, keyFile),
    signingAlgorithm: oauth.signingAlgorithm,
  };
  // Unset keys stay absent, so a resolved entry compares and prints as written.
  return { oauth: Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined)) as OAuthSettings };
}

/** The message quotes the URL as written, not expanded: an expanded one may hold a token. */
function checkUrl(url: string, written: string, where: string, source: string): void {
  let protocol: string | undefined;
  try {
    protocol = new URL(url).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new ConfigError(
      `invalid config ${source}:\n  ${where}: expected an http(s) URL, got ${JSON.stringify(written)}`,
    );
  }
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

export function isDisabled(value: ServerConfig | DisabledServer): value is DisabledServer {
  return 'reason' in value;
}
