/**
 * Loads the configuration: finds the file (flag, MCP_CHAT_CONFIG, ./mcp_config.json,
 * $XDG_CONFIG_HOME/mcp-chat, the shipped one), validates it with zod, expands
 * variables and applies overrides (flags > environment > file > defaults).
 * Every problem is a ConfigError naming the file and the JSON path of the bad field.
 */
import fs from 'node:fs';
import path from 'node:path';
import dotenv from 'dotenv';
import type { z } from 'zod';
import { ConfigError } from './errors.js';
import { type Env, expandVariables } from './config/expand.js';
import { normalizeOllamaUrl } from './config/ollama-url.js';
import { isDisabled, resolveServer } from './config/resolve-server.js';
import { type ConfigFile, configFileSchema } from './config/schema.js';
import type { AppConfig, DisabledServer, ServerConfig } from './config/types.js';

export interface LoadConfigOptions {
  configPath?: string;
  /** Where mcp-chat was started; `${PWD}` expands to it. */
  cwd: string;
  env: Env;
  flags?: { model?: string; host?: string };
  packageConfigPath: string;
  xdgConfigHome: string;
}

/** Loads `<cwd>/.env` without overriding variables that are already set. */
export function loadDotEnv(cwd: string): void {
  dotenv.config({ path: path.join(cwd, '.env'), quiet: true });
}

export function findConfigFile(options: LoadConfigOptions): string {
  const explicit = options.configPath ?? (options.env.MCP_CHAT_CONFIG || undefined);
  if (explicit !== undefined) {
    const resolved = path.resolve(options.cwd, explicit);
    if (!fs.existsSync(resolved)) {
      const origin = options.configPath !== undefined ? '--config' : 'MCP_CHAT_CONFIG';
      throw new ConfigError(`config file not found: ${resolved} (from ${origin})`);
    }
    return resolved;
  }
  const candidates = [path.join(options.cwd, 'mcp_config.json'), path.join(options.xdgConfigHome, 'mcp-chat', 'mcp_config.json')];
  return candidates.find((candidate) => fs.existsSync(candidate)) ?? options.packageConfigPath;
}

function formatPath(segments: readonly PropertyKey[]): string {
  return segments.reduce<string>((out, segment) => {
    if (typeof segment === 'number') return `${out}[${segment}]`;
    return out ? `${out}.${String(segment)}` : String(segment);
  }, '');
}

function issueMessage(issue: z.core.$ZodIssue): string {
  // zod reports a bad record key as "Invalid key in record"; the useful words are in the nested issue.
  if (issue.code === 'invalid_key') return `invalid name: ${issue.issues.map((inner) => inner.message).join('; ')}`;
  return issue.message;
}

function formatIssues(file: string, issues: z.core.$ZodIssue[]): string {
  const lines = issues.map((issue) => `  ${formatPath(issue.path) || '(top level)'}: ${issueMessage(issue)}`);
  return `invalid config ${file}:\n${lines.join('\n')}`;
}

function readConfigFile(file: string): ConfigFile {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read config ${file}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`config ${file} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = configFileSchema.safeParse(json);
  if (!parsed.success) throw new ConfigError(formatIssues(file, parsed.error.issues));
  return parsed.data;
}

function resolveServers(file: ConfigFile, env: Env, configDir: string): { servers: ServerConfig[]; disabled: DisabledServer[] } {
  const servers: ServerConfig[] = [];
  const disabled: DisabledServer[] = [];
  for (const [name, entry] of Object.entries(file.mcpServers ?? file.mcp_servers ?? {})) {
    const resolved = resolveServer(name, entry, { env, configDir });
    if (isDisabled(resolved)) disabled.push(resolved);
    else servers.push(resolved);
  }
  return { servers, disabled };
}

export function loadConfig(options: LoadConfigOptions): AppConfig {
  const source = findConfigFile(options);
  const file = readConfigFile(source);
  // ${PWD} is always where mcp-chat was started, whatever the shell exported.
  const env: Env = { ...options.env, PWD: options.cwd };
  const { servers, disabled } = resolveServers(file, env, path.dirname(source));
  const ollama = file.ollama ?? {};
  const hostSetting = options.flags?.host
    ? { value: options.flags.host, origin: '--host' }
    : options.env.OLLAMA_HOST
      ? { value: options.env.OLLAMA_HOST, origin: 'OLLAMA_HOST' }
      : { value: expandVariables(ollama.base_url ?? 'http://127.0.0.1:11434', env).value, origin: `ollama.base_url in ${source}` };
  const logFile = options.env.MCP_CHAT_LOG_FILE || file.logging?.file || 'logs/mcp-chat.log';
  return {
    source,
    ollama: {
      baseUrl: normalizeOllamaUrl(hostSetting.value, hostSetting.origin),
      model: options.flags?.model || options.env.MCP_CHAT_MODEL || ollama.model || 'llama3.2',
      timeoutMs: (ollama.timeout ?? 120) * 1000,
      numCtx: ollama.num_ctx ?? 8192,
      toolMode: ollama.tool_mode ?? 'auto',
      options: ollama.options ?? {},
    },
    servers,
    disabled,
    history: { maxMessages: file.history?.max_messages ?? 10 },
    logging: {
      level: options.env.MCP_CHAT_LOG_LEVEL || file.logging?.level || 'info',
      file: path.resolve(options.cwd, logFile),
    },
  };
}
