/**
 * A validated file → `AppConfig`: defaults, then the file, then the environment, then
 * flags (highest). An empty environment variable or flag counts as unset. Each setting
 * remembers where it came from so an unusable value is reported with its origin.
 */
import path from 'node:path';
import { ConfigError } from '../shared/errors.js';
import { stateDir } from '../shared/state-dir.js';
import type { Env } from './expand.js';
import { normalizeOllamaUrl } from './ollama-url.js';
import { isDisabled, resolveServer, secondsToMs } from './resolve-server.js';
import { type ConfigFile, LOG_LEVELS, LOG_SIZE } from './schema.js';
import type { AppConfig, DisabledServer, OllamaSettings, ServerConfig, ToolSettings } from './types.js';
import { positiveInteger } from '../shared/positive-integer.js';

export const DEFAULTS = {
  baseUrl: 'http://127.0.0.1:11434',
  model: 'llama3.2',
  timeoutS: 120,
  /** Read-only calls of one reply run at once, up to this many: a few servers' worth. */
  maxParallel: 4,
  /** A quarter of the context for tools leaves room for the conversation and the reply. */
  toolBudgetShare: 0.25,
  logLevel: 'info',
  /** Under the state directory, not the working directory: a chat run anywhere leaves nothing there. */
  logFile: path.join('logs', 'mcp-chat.log'),
} as const;

export interface ResolveOptions {
  /** Absolute path of the loaded file. */
  source: string;
  /** Where mcp-chat was started: `${PWD}`, and the base of a relative `logging.file`. */
  cwd: string;
  env: Env;
  flags: { model?: string; host?: string };
}

interface Setting {
  value: string;
  origin: string;
}

/** The first candidate that is set and non-empty, highest precedence first. */
function pick(candidates: ReadonlyArray<readonly [string | undefined, string]>, fallback: Setting): Setting {
  for (const [value, origin] of candidates) {
    if (value !== undefined && value !== '') return { value, origin };
  }
  return fallback;
}

export function resolveAppConfig(file: ConfigFile, options: ResolveOptions): AppConfig {
  return {
    source: options.source,
    ollama: resolveOllama(file, options),
    ...resolveServers(file, options),
    roots: resolveRoots(file, options),
    history: resolveHistory(file),
    tools: resolveTools(file),
    logging: resolveLogging(file, options),
  };
}

function resolveOllama(file: ConfigFile, options: ResolveOptions): OllamaSettings {
  const ollama = file.ollama ?? {};
  const inFile = `in ${options.source}`;
  const host = pick(
    [
      [options.flags.host, '--host'],
      [options.env.OLLAMA_HOST, 'OLLAMA_HOST'],
      [ollama.base_url, `ollama.base_url ${inFile}`],
    ],
    { value: DEFAULTS.baseUrl, origin: 'default' },
  );
  const model = pick(
    [
      [options.flags.model, '--model'],
      [options.env.MCP_CHAT_MODEL, 'MCP_CHAT_MODEL'],
      [ollama.model, 'file'],
    ],
    { value: DEFAULTS.model, origin: 'default' },
  );
  const modelOptions = ollama.options ?? {};
  // A `num_ctx` among the options is sent over `ollama.num_ctx` (ollama/wire.ts): the budget follows it too.
  const numCtx = positiveInteger(modelOptions.num_ctx) ?? ollama.num_ctx;
  return {
    baseUrl: normalizeOllamaUrl(host.value, host.origin),
    model: model.value,
    timeoutMs: secondsToMs(ollama.timeout ?? DEFAULTS.timeoutS),
    ...(numCtx === undefined ? {} : { numCtx }),
    toolMode: ollama.tool_mode ?? 'auto',
    options: modelOptions,
    ...(ollama.think === undefined ? {} : { think: ollama.think }),
  };
}

/** Where mcp-chat started, then the configured roots (relative ones from the config file's directory), once each. */
function resolveRoots(file: ConfigFile, options: ResolveOptions): string[] {
  const configDir = path.dirname(options.source);
  return [...new Set([options.cwd, ...(file.roots ?? []).map((root) => path.resolve(configDir, root))])];
}

/** A share as the config gives it, a fraction or a percentage, as a fraction. */
function shareOf(share: number | string): number {
  return typeof share === 'string' ? Number.parseFloat(share) / 100 : share;
}

function resolveHistory(file: ConfigFile): AppConfig['history'] {
  const { max_messages: maxMessages, compact_at: compactAt } = file.history ?? {};
  return {
    ...(maxMessages === undefined ? {} : { maxMessages }),
    ...(compactAt === undefined ? {} : { compactAt: shareOf(compactAt) }),
  };
}

function resolveTools(file: ConfigFile): ToolSettings {
  const { max_parallel: maxParallel, budget, embed_model: embedModel } = file.tools ?? {};
  return {
    maxParallel: maxParallel ?? DEFAULTS.maxParallel,
    budgetShare: budget === undefined ? DEFAULTS.toolBudgetShare : shareOf(budget),
    ...(embedModel === undefined ? {} : { embedModel }),
  };
}

function resolveServers(
  file: ConfigFile,
  options: ResolveOptions,
): { servers: ServerConfig[]; disabled: DisabledServer[] } {
  const serversKey = file.mcpServers !== undefined ? 'mcpServers' : 'mcp_servers';
  // ${PWD} is always where mcp-chat was started, whatever the shell exported.
  const context = { env: { ...options.env, PWD: options.cwd }, source: options.source, serversKey };
  const servers: ServerConfig[] = [];
  const disabled: DisabledServer[] = [];
  for (const [name, entry] of Object.entries(file[serversKey] ?? {})) {
    const resolved = resolveServer(name, entry, context);
    if (isDisabled(resolved)) disabled.push(resolved);
    else servers.push(resolved);
  }
  return { servers, disabled };
}

function resolveLogging(file: ConfigFile, options: ResolveOptions): AppConfig['logging'] {
  const level = pick([[options.env.MCP_CHAT_LOG_LEVEL, 'MCP_CHAT_LOG_LEVEL']], {
    value: file.logging?.level ?? DEFAULTS.logLevel,
    origin: 'file',
  });
  if (!(LOG_LEVELS as readonly string[]).includes(level.value)) {
    throw new ConfigError(
      `${level.origin}: expected one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(level.value)}`,
    );
  }
  const logFile = pick(
    [
      [options.env.MCP_CHAT_LOG_FILE, 'MCP_CHAT_LOG_FILE'],
      [file.logging?.file, 'file'],
    ],
    { value: path.join(stateDir(options.env), DEFAULTS.logFile), origin: 'default' },
  );
  const { max_size: maxSize, files } = file.logging ?? {};
  return {
    level: level.value,
    file: path.resolve(options.cwd, logFile.value),
    // Unset, the logger's own defaults apply (ROTATION_DEFAULTS in src/shared/log-rotation.ts).
    ...(maxSize === undefined ? {} : { maxBytes: sizeInBytes(maxSize) }),
    ...(files === undefined ? {} : { files }),
  };
}

const UNIT_BYTES: Record<string, number> = { k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** A size the schema accepted (`LOG_SIZE`), in bytes. */
function sizeInBytes(size: string): number {
  const [, count = '', unit = ''] = LOG_SIZE.exec(size) ?? [];
  return Number(count) * (UNIT_BYTES[unit.toLowerCase()] ?? 0);
}
