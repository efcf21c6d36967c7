/**
 * What trusting a working directory's files would let them do, as lines for a person: for each
 * server everything that decides what runs and what it may do unasked, then the Ollama URL, the log
 * file, the roots, and what a `.env` sets. From the file as written, so no `${VAR}` secret is shown.
 */
import path from 'node:path';
import { describeRefused } from './project-env.js';
import { resolvePathArgument, runsShippedServer } from './resolve-server.js';
import { isRemoteEntry, type ConfigFile, type ServerEntry } from './schema.js';
import type { DotEnvContent } from './load.js';

/** Shown as written when made only of these; quoted and escaped otherwise. */
const PLAIN = /^[A-Za-z0-9_@%+=:,./~?&#${}-]+$/;

// Security: a value that is not plain is shown JSON-quoted with every non-ASCII character escaped,
// so a line break, a bidirectional override or a look-alike letter cannot disguise what would run.
export function quoteForPerson(value: string): string {
  if (PLAIN.test(value)) return value;
  return JSON.stringify(value).replace(
    /[^\x20-\x7e]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Escapes (`$${`, `\${`) first, so they are not taken for references. */
const REFERENCE = /(\$\$\{|\\\$\{)|\$\{([A-Za-z_][A-Za-z0-9_]*)/g;

/** Variables an entry reads from the environment, `PWD` aside (it is only where mcp-chat started). */
function variablesOf(entry: ServerEntry): string[] {
  const fields = [entry.command, entry.url, entry.cwd, entry.ca, ...(entry.args ?? [])];
  const texts = [...fields, ...Object.values(entry.env ?? {}), ...Object.values(entry.headers ?? {})];
  const names = new Set<string>();
  for (const text of texts) {
    for (const match of (text ?? '').matchAll(REFERENCE)) {
      if (match[2] !== undefined && match[2] !== 'PWD') names.add(match[2]);
    }
  }
  return [...names];
}

// Security: these change which program runs or what it loads before its own code, so their values
// are always shown, whatever their names look like.
const RUNS_WITH =
  /^(PATH|NODE_OPTIONS|NODE_PATH|LD_\w+|DYLD_\w+|PYTHON\w*|PERL5\w*|RUBY\w*|JAVA_TOOL_OPTIONS|BASH_ENV|ENV|SHELL|HOME)$/;
/** A name a secret goes by: its value is not shown (it is still hashed with the file). */
const SECRET_NAME = /TOKEN|SECRET|PASSW|PASSPHRASE|PRIVATE|CREDENTIAL|AUTH|COOKIE|SESSION|(^|_)KEY($|_)|APIKEY/i;

function envLine(env: Record<string, string>): string | undefined {
  const parts = Object.entries(env).map(([name, value]) =>
    SECRET_NAME.test(name) && !RUNS_WITH.test(name)
      ? `${quoteForPerson(name)}=(secret, not shown)`
      : `${quoteForPerson(name)}=${quoteForPerson(value)}`,
  );
  return parts.length > 0 ? `    env: ${parts.join(', ')}` : undefined;
}

/** `${PWD}` only: the one variable whose value is known and no secret (where mcp-chat started). */
function withPwd(text: string, cwd: string): string {
  return text.replace(/(?<![$\\])\$\{PWD\}/g, cwd);
}

/** The command line as it would run: `${PWD}` expanded, relative paths resolved as the loader does. */
function localLine(entry: ServerEntry, configDir: string, cwd: string): { runs: string; shipped: boolean } {
  const serverCwd = path.resolve(configDir, withPwd(entry.cwd ?? '.', cwd));
  const [command, ...args] = [entry.command ?? '', ...(entry.args ?? [])].map((part) =>
    resolvePathArgument(withPwd(part, cwd), serverCwd),
  );
  const where = entry.cwd === undefined ? '' : ` (in ${quoteForPerson(serverCwd)})`;
  const shipped = runsShippedServer({ command: command ?? '', args, env: entry.env ?? {} });
  return { runs: `runs ${[command ?? '', ...args].map(quoteForPerson).join(' ')}${where}`, shipped };
}

function policyLine(entry: ServerEntry, shipped: boolean): string {
  const allowed = entry.alwaysAllow ?? [];
  const trust = entry.trust ?? shipped;
  const trustText = trust ? (entry.trust === undefined ? "yes (mcp-chat's own server)" : 'yes') : 'no';
  return [
    `    alwaysAllow: ${allowed.length > 0 ? allowed.map(quoteForPerson).join(', ') : 'none'}`,
    `trust: ${trustText}`,
    `sampling: ${entry.sampling ?? 'ask'}`,
    `elicitation: ${entry.elicitation ?? 'ask'}`,
  ].join(' · ');
}

function serverLines(name: string, entry: ServerEntry, configDir: string, cwd: string): string[] {
  const remote = isRemoteEntry(entry);
  const local = remote ? undefined : localLine(entry, configDir, cwd);
  const runs = local?.runs ?? `connects to ${quoteForPerson(entry.url ?? '')}`;
  const variables = variablesOf(entry);
  const reads = variables.length > 0 ? `  (reads ${variables.map((variable) => `$${variable}`).join(', ')})` : '';
  const headers = Object.keys(entry.headers ?? {}).map(quoteForPerson);
  return [
    `  ${quoteForPerson(name)}: ${runs}${reads}`,
    ...[envLine(entry.env ?? {})].filter((line): line is string => line !== undefined),
    ...(headers.length > 0 ? [`    sends the headers ${headers.join(', ')}`] : []),
    ...(remote && entry.ca !== undefined
      ? [`    trusts the CA in ${quoteForPerson(path.resolve(configDir, withPwd(entry.ca, cwd)))}`]
      : []),
    policyLine(entry, local?.shipped ?? false),
  ];
}

/** Where the chat goes when `--host` or `OLLAMA_HOST` overrides the file's `ollama.base_url`. */
export interface OllamaOverride {
  url: string;
  /** `--host` or `OLLAMA_HOST`. */
  origin: string;
}

/** Where the chat is sent: the effective address, and the file's own when something overrides it. */
function ollamaLine(baseUrl: string | undefined, override: OllamaOverride | undefined): string[] {
  if (override !== undefined) {
    const ignored = baseUrl === undefined ? '' : `; its own ${quoteForPerson(baseUrl)} is not used`;
    return [`  sends the chat to ${quoteForPerson(override.url)} (${override.origin}${ignored})`];
  }
  return baseUrl === undefined ? [] : [`  sends the chat to ${quoteForPerson(baseUrl)}`];
}

/**
 * The file's path, then each server that would start and the settings that reach outside the chat.
 * `cwd` is where mcp-chat starts (`${PWD}`, and the base of a relative log file).
 */
export function describeConfig(
  source: string,
  file: ConfigFile,
  cwd: string = path.dirname(source),
  override?: OllamaOverride,
): string[] {
  const configDir = path.dirname(source);
  const servers = Object.entries(file.mcpServers ?? file.mcp_servers ?? {}).filter(([, entry]) => !entry.disabled);
  const lines = [`${source}:`, ...servers.flatMap(([name, entry]) => serverLines(name, entry, configDir, cwd))];
  if (servers.length === 0) lines.push('  no servers');
  lines.push(...ollamaLine(file.ollama?.base_url, override));
  if (file.logging?.file !== undefined)
    lines.push(`  writes its log to ${quoteForPerson(path.resolve(cwd, file.logging.file))}`);
  if (file.roots !== undefined && file.roots.length > 0) {
    const roots = file.roots.map((root) => quoteForPerson(path.resolve(configDir, root)));
    lines.push(`  offers the servers the roots ${roots.join(', ')}`);
  }
  return lines;
}

/** mcp-chat's own settings a `.env` may set whose values are no secret: shown, as where the chat goes matters. */
const SHOWN_VALUES = new Set(['OLLAMA_HOST', 'MCP_CHAT_MODEL', 'MCP_CHAT_LOG_LEVEL']);

/** Lines for a `.env`: the names it sets (values only where they are no secret), then each variable refused. */
export function describeDotEnv(source: string, content: DotEnvContent): string[] {
  const names = Object.entries(content.values).map(([name, value]) =>
    SHOWN_VALUES.has(name) ? `${quoteForPerson(name)}=${quoteForPerson(value)}` : quoteForPerson(name),
  );
  return [
    `${source}: sets ${names.length > 0 ? names.join(', ') : 'no variables'}`,
    ...content.refused.map((refused) => describeRefused(source, refused)),
  ];
}
