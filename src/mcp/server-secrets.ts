/**
 * The secrets a configured server is given, and how to keep them out of what people and
 * logs see: every value of a stdio entry's `env`, a remote entry's headers and URL
 * credentials, and the secret-looking words of a command line. A server may echo any of
 * them (its stderr, an error, a result), so they are hidden by value, whatever their shape.
 * Free of transport code, so the host can use it without loading HTTP clients.
 */
import type { RemoteServerConfig, ServerConfig, StdioServerConfig } from '../config/types.js';
import { errorMessage } from '../shared/errors.js';

/** Names of headers, query parameters, flags and variables that carry credentials. */
export const CREDENTIAL_NAME = /auth|token|key|secret|cookie|session|pass|sig/i;

/** What a hidden secret is replaced with (the same word the log's own redaction writes). */
const REDACTED = '[REDACTED]';

/** Shorter values are too likely to be ordinary words to be hidden everywhere they occur. */
const MIN_SECRET_CHARS = 8;

/** Well-known token shapes: such a word on a command line is a secret whatever flag it follows. */
const TOKEN_SHAPES: readonly RegExp[] = [
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g, // GitHub
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g, // GitHub, fine-grained
  /\bglpat-[A-Za-z0-9_-]{20,}/g, // GitLab
  /\bsk-[A-Za-z0-9_-]{16,}/g, // OpenAI, Anthropic
  /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}/g, // Stripe
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, // Slack
  /\bAKIA[0-9A-Z]{16}\b/g, // AWS access key id
  /\beyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,}/g, // JWT
];

/** `--token=X`, `token=X` (as in `docker run -e TOKEN=X`): the name, then the value. */
const NAMED_VALUE = /^-{0,2}([A-Za-z_][\w.-]*)=(.+)$/s;
/** `--api-key` alone: the value is the next argument. */
const FLAG = /^--?([A-Za-z][\w.-]*)$/;
/** An absolute path (Unix, home-relative or Windows). */
const ABSOLUTE_PATH = /^(?:\/|~\/|[A-Za-z]:[\\/])/;

/** The URL without query or credentials, for logs and messages (a query may carry an API key). */
export function displayUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

/** A URL's password and its credential-named query values; nothing for text that is not a URL. */
function urlCredentials(text: string): string[] {
  if (!URL.canParse(text)) return [];
  const url = new URL(text);
  const queryValues = [...url.searchParams].filter(([name]) => CREDENTIAL_NAME.test(name)).map(([, value]) => value);
  return [...queryValues, decodeURIComponent(url.password)];
}

/** A header value with and without its scheme (`Bearer X` is sent, `X` may be echoed alone). */
function headerValues(value: string): string[] {
  const scheme = /^[A-Za-z][\w-]*\s+(\S+)$/.exec(value);
  return scheme?.[1] ? [value, scheme[1]] : [value];
}

function remoteSecrets(config: RemoteServerConfig): string[] {
  const oauthSecret = config.oauth?.clientSecret;
  return [
    ...Object.values(config.headers).flatMap(headerValues),
    ...urlCredentials(config.url),
    ...(oauthSecret === undefined ? [] : [oauthSecret]),
  ];
}

/**
 * Every env value is the server's own (the config gives it to that server only), except an
 * absolute path under a name that is not a credential's: a directory the server is told to use
 * (`PAPERS_DIR`) is where it says it saved something, and hiding it would hide that answer.
 */
function envSecrets(env: Record<string, string>): string[] {
  return Object.entries(env)
    .filter(([name, value]) => CREDENTIAL_NAME.test(name) || !ABSOLUTE_PATH.test(value))
    .flatMap(([, value]) => [value, ...urlCredentials(value)]);
}

/** The secret words of a command line: values of credential flags, token-shaped words, URL credentials. */
function argSecrets(args: readonly string[]): string[] {
  return args.flatMap((arg, index) => {
    const named = NAMED_VALUE.exec(arg);
    const flag = FLAG.exec(arg);
    const next = args[index + 1];
    const fromName = named?.[1] && named[2] && CREDENTIAL_NAME.test(named[1]) ? [named[2]] : [];
    const fromFlag =
      flag?.[1] && CREDENTIAL_NAME.test(flag[1]) && next !== undefined && !next.startsWith('-') ? [next] : [];
    const shaped = TOKEN_SHAPES.flatMap((shape) => arg.match(shape) ?? []);
    return [...fromName, ...fromFlag, ...shaped, ...urlCredentials(arg)];
  });
}

function stdioSecrets(config: StdioServerConfig): string[] {
  return [...envSecrets(config.env), ...argSecrets(config.args)];
}

const cache = new WeakMap<ServerConfig, readonly string[]>();

/** Secrets an entry's server was given after the config was read: its OAuth tokens and registered client's secret. */
const learned = new WeakMap<ServerConfig, Set<string>>();

// Security: OAuth tokens, and what the user types into a form's secret field, reach a server at run
// time, not from its entry; once known they are hidden wherever the entry's own secrets are (its
// errors, results, stderr and the log lines about it).
export function addSecretValues(config: ServerConfig, values: readonly (string | undefined)[]): void {
  const known = learned.get(config) ?? new Set<string>();
  const before = known.size;
  for (const value of values) if (value) known.add(value);
  learned.set(config, known);
  if (known.size !== before) cache.delete(config);
}

/** The values to hide for one entry, longest first (so a value that holds another goes whole). */
export function secretValues(config: ServerConfig): readonly string[] {
  const cached = cache.get(config);
  if (cached) return cached;
  const found = config.kind === 'stdio' ? stdioSecrets(config) : remoteSecrets(config);
  const values = [...new Set([...found, ...(learned.get(config) ?? [])])]
    .filter((value) => value.length >= MIN_SECRET_CHARS)
    .sort((a, b) => b.length - a.length);
  cache.set(config, values);
  return values;
}

/** `text` with every one of `secrets` replaced. */
export function hideValues(text: string, secrets: readonly string[]): string {
  return secrets.reduce((out, secret) => out.replaceAll(secret, REDACTED), text);
}

// Security: a server's stderr, errors, results and command line may hold the secrets its entry
// gives it; they are hidden by value wherever they are shown or logged (a result's other text is
// the server's and is left alone).
export function hideSecrets(text: string, config: ServerConfig): string {
  return hideValues(text, secretValues(config));
}

/**
 * An error fit for the log: its message and stack with the secrets hidden, and nothing else.
 * Security: the log writes every field of an error, and a spawn error carries the child's whole
 * command line (`spawnargs`); a cause's message is written too.
 */
export function errorWithoutSecrets(error: unknown, secrets: readonly string[]): Error {
  const safe = new Error(hideValues(errorMessage(error), secrets));
  if (error instanceof Error) {
    safe.name = error.name;
    safe.stack = hideValues(error.stack ?? '', secrets);
  }
  return safe;
}
