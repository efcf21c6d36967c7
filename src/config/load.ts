/**
 * Loads the configuration: finds the file (--config, MCP_CHAT_CONFIG, ./mcp_config.json,
 * $XDG_CONFIG_HOME/mcp-chat, the shipped one) and says which step found it, validates it with
 * zod, expands variables and applies overrides. Pure apart from reading files: the caller passes
 * env, cwd and flags, and decides (by `skipWorkingDirectory`) whether ./mcp_config.json may be used.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import dotenv from 'dotenv';
import { ConfigError } from '../shared/errors.js';
import type { Env } from './expand.js';
import { formatIssues } from './issues.js';
import { parseJsonText, readConfigBytes } from './json-text.js';
import { refusedFromProject, type RefusedVariable } from './project-env.js';
import { resolveAppConfig } from './resolve.js';
import { type ConfigFile, configFileSchema, PARSED_ONCE } from './schema.js';
import type { AppConfig } from './types.js';

export interface LoadConfigOptions {
  /** `--config`. */
  configPath?: string;
  /** Where mcp-chat was started; `${PWD}` expands to it and relative paths given by the user resolve against it. */
  cwd: string;
  /** Usually `process.env`, with the working directory's trusted `.env` applied (applyDotEnv). */
  env: Env;
  /** `--model`, `--host`: they override the environment and the file. */
  flags?: { model?: string; host?: string };
  /** The mcp_config.json shipped with the package: the last resort. */
  packageConfigPath: string;
  /** Defaults to `$XDG_CONFIG_HOME`, else `~/.config`. */
  xdgConfigHome?: string;
  /** Skip `./mcp_config.json` (it is not trusted): discovery goes on to the user's file, then the shipped one. */
  skipWorkingDirectory?: boolean;
}

/** Which discovery step found the file: `cwd` is the only one that can be someone else's. */
export type ConfigOrigin = 'flag' | 'env' | 'cwd' | 'user' | 'package';

export interface FoundConfig {
  path: string;
  origin: ConfigOrigin;
}

/** The name of the file looked for in the working directory and the user's config directory. */
export const CONFIG_FILE_NAME = 'mcp_config.json';

/** A `.env` as read: the variables it may set, and those a project's `.env` may not (never applied). */
export interface DotEnvContent {
  values: Record<string, string>;
  refused: RefusedVariable[];
}

/** Parses a `.env` already read (the very bytes whose trust was checked), sorting out what it may not set. */
export function parseDotEnv(content: Buffer): DotEnvContent {
  const values: Record<string, string> = {};
  const refused: RefusedVariable[] = [];
  for (const [name, value] of Object.entries(dotenv.parse(content))) {
    const refusal = refusedFromProject(name);
    if (refusal) refused.push(refusal);
    else values[name] = value;
  }
  return { values, refused };
}

/**
 * Sets a working directory's `.env` variables in `env`, never overriding one that is already set.
 * Returns the ones it refused, for the caller to say so.
 */
export function applyDotEnv(content: Buffer, env: Env): RefusedVariable[] {
  const { values, refused } = parseDotEnv(content);
  for (const [name, value] of Object.entries(values)) {
    if (env[name] === undefined) env[name] = value;
  }
  return refused;
}

/** The user's own config file (`$XDG_CONFIG_HOME/mcp-chat/mcp_config.json`), whether it exists or not. */
export function userConfigPath(options: Pick<LoadConfigOptions, 'env' | 'xdgConfigHome'>): string {
  return path.resolve(xdgConfigHome(options), 'mcp-chat', CONFIG_FILE_NAME);
}

/** The XDG spec ignores a relative XDG_CONFIG_HOME, and so do we. */
function xdgConfigHome(options: Pick<LoadConfigOptions, 'env' | 'xdgConfigHome'>): string {
  if (options.xdgConfigHome !== undefined) return options.xdgConfigHome;
  const fromEnv = options.env.XDG_CONFIG_HOME;
  if (fromEnv !== undefined && path.isAbsolute(fromEnv)) return fromEnv;
  return path.join(options.env.HOME || os.homedir(), '.config');
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The file to load, in discovery order. An explicit path (flag or env) must exist. */
export function findConfigFile(options: LoadConfigOptions): string {
  return discoverConfigFile(options).path;
}

/** The file to load and the step that found it. */
export function discoverConfigFile(options: LoadConfigOptions): FoundConfig {
  const explicit: ReadonlyArray<readonly [string | undefined, string, ConfigOrigin]> = [
    [options.configPath, '--config', 'flag'],
    [options.env.MCP_CHAT_CONFIG, 'MCP_CHAT_CONFIG', 'env'],
  ];
  for (const [given, name, origin] of explicit) {
    if (given === undefined || given === '') continue;
    const resolved = path.resolve(options.cwd, given);
    if (!fs.existsSync(resolved)) throw new ConfigError(`config file not found: ${resolved} (from ${name})`);
    return { path: resolved, origin };
  }
  const user = userConfigPath(options);
  const shipped = path.resolve(options.packageConfigPath);
  const local = path.resolve(options.cwd, CONFIG_FILE_NAME);
  // Started in the user's own config directory or the package's, ./mcp_config.json is that file.
  const localOrigin: ConfigOrigin = local === user ? 'user' : local === shipped ? 'package' : 'cwd';
  const candidates: FoundConfig[] = [
    { path: local, origin: localOrigin },
    { path: user, origin: 'user' },
    { path: shipped, origin: 'package' },
  ];
  const searched = candidates.filter((candidate) => !(options.skipWorkingDirectory && candidate.origin === 'cwd'));
  const found = searched.find((candidate) => isFile(candidate.path));
  if (found === undefined) {
    throw new ConfigError(
      `no configuration file found; looked for ${searched.map((candidate) => candidate.path).join(', ')}`,
      'Pass one with --config <path>',
    );
  }
  return found;
}

/** Reads and validates one file; every problem is listed with its JSON path. */
export function readConfigFile(file: string): ConfigFile {
  return parseConfigFile(file, readConfigBytes(file));
}

/** Validates bytes already read from `source` (and, for a working directory's file, hashed). */
export function parseConfigFile(source: string, content: Buffer): ConfigFile {
  const json = parseJsonText(source, content);
  const parsed = configFileSchema.safeParse(json, PARSED_ONCE);
  if (!parsed.success) throw new ConfigError(formatIssues(source, parsed.error.issues, json));
  return parsed.data;
}

export function loadConfig(options: LoadConfigOptions): AppConfig {
  return loadConfigFile(findConfigFile(options), options);
}

/** Loads a file found by discovery (one that needs no trust, or whose trust the caller checks itself). */
export function loadConfigFile(source: string, options: LoadConfigOptions): AppConfig {
  return loadConfigContent(source, readConfigBytes(source), options);
}

/**
 * Loads the bytes of `source` already read. Security: a working directory's config is loaded from
 * the very bytes that were hashed and shown, never read again (no swap between check and use).
 */
export function loadConfigContent(source: string, content: Buffer, options: LoadConfigOptions): AppConfig {
  const file = parseConfigFile(source, content);
  return resolveAppConfig(file, { source, cwd: options.cwd, env: options.env, flags: options.flags ?? {} });
}
