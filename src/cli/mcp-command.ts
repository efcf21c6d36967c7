/**
 * `mcp-chat mcp add|remove|list`: servers managed from the command line. They edit one file —
 * the one `--config` or `$MCP_CHAT_CONFIG` names, else the user's own
 * (`$XDG_CONFIG_HOME/mcp-chat/mcp_config.json`) — in place and atomically, and the result must
 * be a valid config before it is written. A user config that does not exist yet starts as a
 * copy of the shipped one (its servers kept, their paths pointed at the package), so adding a
 * server never loses the others. A running chat picks the change up through its watcher.
 */
import fs from 'node:fs';
import { addServerEntry, removeServerEntry } from '../config/config-edit.js';
import { formatIssues } from '../config/issues.js';
import { userConfigPath } from '../config/load.js';
import { configFileSchema } from '../config/schema.js';
import { writeFileAtomic } from '../shared/atomic-write.js';
import { ConfigError, ExitCode, UsageError } from '../shared/errors.js';
import { isRecord } from '../shared/is-record.js';
import { PACKAGE_ROOT, SHIPPED_CONFIG_PATH } from '../shared/paths.js';
import { jsonForTerminal } from '../shared/terminal-text.js';
import type { Output } from './output.js';

export interface McpTarget {
  /** `--config`, if given. */
  config?: string;
  env: NodeJS.ProcessEnv;
}

export interface AddOptions {
  env?: string[];
  header?: string[];
  transport?: 'http' | 'sse';
  force?: boolean;
}

/** The file the commands edit. */
export function targetFile(target: McpTarget): string {
  return target.config ?? (target.env.MCP_CHAT_CONFIG || undefined) ?? userConfigPath({ env: target.env });
}

/** The file's text; a user config not made yet starts as the shipped one, its servers' paths made absolute. */
function currentText(file: string): { text: string; seeded: boolean } {
  if (fs.existsSync(file)) return { text: fs.readFileSync(file, 'utf8'), seeded: false };
  let text = fs.readFileSync(SHIPPED_CONFIG_PATH, 'utf8');
  const parsed: unknown = JSON.parse(text);
  const servers = isRecord(parsed) && isRecord(parsed.mcpServers) ? parsed.mcpServers : {};
  for (const [name, entry] of Object.entries(servers)) {
    // The shipped commands name their scripts relative to the package: a `cwd` keeps them found from anywhere.
    if (isRecord(entry) && typeof entry.command === 'string')
      text = addServerEntry(text, SHIPPED_CONFIG_PATH, name, { ...entry, cwd: PACKAGE_ROOT }, true);
  }
  return { text, seeded: true };
}

/** Writes the edited text only if it is still a valid config; each problem named with its JSON path. */
function writeValid(file: string, text: string): void {
  const json: unknown = JSON.parse(text);
  const parsed = configFileSchema.safeParse(json);
  if (!parsed.success) throw new ConfigError(formatIssues(file, parsed.error.issues, json));
  writeFileAtomic(file, text);
}

function pairs(values: string[] | undefined, separator: '=' | ':', flag: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const value of values ?? []) {
    const at = value.indexOf(separator);
    if (at <= 0) throw new UsageError(`${flag} takes NAME${separator}VALUE, not "${value}"`);
    result[value.slice(0, at).trim()] = value.slice(at + 1).trim();
  }
  return result;
}

/** The entry for `add <name> <url>` or `add <name> -- <command> [args…]`. */
export function newEntry(target: string[], options: AddOptions): Record<string, unknown> {
  const [first, ...rest] = target;
  if (first === undefined)
    throw new UsageError(
      'name what the server runs: a URL, or -- and a command',
      'For example: mcp-chat mcp add memory -- npx -y @modelcontextprotocol/server-memory',
    );
  const headers = pairs(options.header, ':', '--header');
  const env = pairs(options.env, '=', '--env');
  if (/^https?:\/\//i.test(first) && rest.length === 0) {
    if (Object.keys(env).length > 0) throw new UsageError('--env is for a command; a remote server takes --header');
    return {
      ...(options.transport ? { type: options.transport } : {}),
      url: first,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
    };
  }
  if (Object.keys(headers).length > 0) throw new UsageError('--header is for a URL; a command takes --env');
  return {
    command: first,
    ...(rest.length > 0 ? { args: rest } : {}),
    ...(Object.keys(env).length > 0 ? { env } : {}),
  };
}

export function mcpAdd(target: McpTarget, output: Output, name: string, what: string[], options: AddOptions): number {
  const file = targetFile(target);
  const { text, seeded } = currentText(file);
  writeValid(file, addServerEntry(text, file, name, newEntry(what, options), options.force === true));
  const made = seeded ? ` (made from the shipped config, whose servers it keeps)` : '';
  output.stdout(`Added server "${name}" to ${file}${made}.`);
  return ExitCode.ok;
}

export function mcpRemove(target: McpTarget, output: Output, name: string): number {
  const file = targetFile(target);
  if (!fs.existsSync(file)) throw new ConfigError(`${file} does not exist: there is nothing to remove`);
  writeValid(file, removeServerEntry(fs.readFileSync(file, 'utf8'), file, name));
  output.stdout(`Removed server "${name}" from ${file}.`);
  return ExitCode.ok;
}

interface ListedServer {
  name: string;
  type: string;
  command?: string;
  args?: string[];
  url?: string;
  disabled?: true;
}

function listed(name: string, entry: unknown): ListedServer {
  const fields = isRecord(entry) ? entry : {};
  const url = typeof fields.url === 'string' ? fields.url : undefined;
  const command = typeof fields.command === 'string' ? fields.command : undefined;
  const args = Array.isArray(fields.args) ? fields.args.filter((arg): arg is string => typeof arg === 'string') : [];
  const type = typeof fields.type === 'string' ? fields.type : url ? 'remote' : 'stdio';
  return {
    name,
    type,
    ...(command ? { command, args } : {}),
    ...(url ? { url } : {}),
    ...(fields.disabled === true ? { disabled: true as const } : {}),
  };
}

export function mcpList(target: McpTarget, output: Output, options: { json?: boolean }): number {
  const file = targetFile(target);
  const exists = fs.existsSync(file);
  const source = exists ? file : SHIPPED_CONFIG_PATH;
  const parsed: unknown = JSON.parse(fs.readFileSync(source, 'utf8'));
  const servers = isRecord(parsed) ? (parsed.mcpServers ?? parsed.mcp_servers) : undefined;
  const rows = Object.entries(isRecord(servers) ? servers : {}).map(([name, entry]) => listed(name, entry));
  if (options.json) {
    output.stdout(jsonForTerminal(rows));
    return ExitCode.ok;
  }
  const heading = exists ? `Servers in ${file}:` : `${file} does not exist yet; the shipped config has:`;
  const lines = rows.map((row) => {
    const what = row.url ?? [row.command, ...(row.args ?? [])].join(' ');
    return `  ${row.name.padEnd(14)} ${row.type.padEnd(6)} ${what}${row.disabled ? '  (disabled)' : ''}`;
  });
  output.stdout([heading, ...(lines.length > 0 ? lines : ['  (none)'])].join('\n'));
  return ExitCode.ok;
}
