/**
 * What every command needs before it runs: the working directory's trusted `.env`, the validated
 * configuration and the logger, built from the global flags. Fatal configuration problems (and an
 * untrusted config a script may not use) throw here, before anything is started or rendered.
 */
import path from 'node:path';
import { loadConfigContent, type LoadConfigOptions } from '../config/load.js';
import { readConfigBytes } from '../config/json-text.js';
import { sha256, TRUST_FILE_NAME, TrustStore } from '../state/trust-store.js';
import { toolPinsDir } from '../state/tool-pin-store.js';
import { ConfigError } from '../shared/errors.js';
import { parseThinkFlag } from '../config/think.js';
import type { AppConfig } from '../config/types.js';
import { type Logger, openLogger } from '../shared/log.js';
import { PACKAGE_ROOT, SHIPPED_CONFIG_PATH } from '../shared/paths.js';
import { stateDir } from '../shared/state-dir.js';
import { type GateResult, passTrustGate, sameDirectory, type TrustAsker } from './trust-gate.js';

export type { TrustAnswer, TrustAsker, TrustQuestion } from './trust-gate.js';

export interface GlobalOptions {
  config?: string;
  model?: string;
  host?: string;
  debug?: boolean;
  /** `--trust`: use the working directory's config and `.env` for this run, without remembering it. */
  trust?: boolean;
  /** `--think [on|off|low|medium|high|max]`: over the config's `ollama.think`; bare is `true`. */
  think?: string | boolean;
  /** `--accept-tool-changes`: offer tools new or changed since they were accepted, for this run only. */
  acceptToolChanges?: boolean;
}

/** Where the user's tool pins are kept, and whether this run offers what changed unasked. */
export interface ToolPinSettings {
  /** The folder of the pin files: `$XDG_STATE_HOME/mcp-chat/tool-pins/`. */
  dir: string;
  acceptForRun: boolean;
}

export interface Runtime {
  config: AppConfig;
  log: Logger;
  debug: boolean;
  /** The config file in use and how to read it again, as it was found and trusted (the REPL's live reload). */
  configFile?: ConfigFile;
  /** Tools new or changed since the user accepted them wait (tool-pin-gate.ts); none: every tool is offered. */
  toolPins?: ToolPinSettings;
}

export interface ConfigFile {
  path: string;
  /** The file as it is now, validated; a working directory's config must still be trusted. Throws a ConfigError. */
  read(): AppConfig;
}

export interface RuntimeHooks {
  /** The REPL's question about an untrusted `./mcp_config.json`; scripts have none and are refused. */
  askTrust?: TrustAsker;
  /** One-line notices for the user (an untrusted `.env` not loaded, a config not used). */
  notify: (line: string) => void;
  /** Lines every user must see, a script's included (a project's .env setting that is not used); `notify` when none. */
  warn?: (line: string) => void;
}

/** The trust store, found from the environment mcp-chat was started with. */
export function openTrustStore(env: NodeJS.ProcessEnv = process.env): TrustStore {
  return new TrustStore(path.join(stateDir(env), TRUST_FILE_NAME));
}

/** `--think` outranks the config file, like the other flags. */
function withThinkFlag(config: AppConfig, flag: string | boolean | undefined): AppConfig {
  if (flag === undefined) return config;
  return { ...config, ollama: { ...config.ollama, think: parseThinkFlag(flag) } };
}

/** The content as it was trusted for this run, or as the store trusts it now (`mcp-chat trust` since). */
function trustedNow(found: GateResult, content: Buffer, store: TrustStore): boolean {
  const forRun = found.trustedForRun;
  if (forRun !== undefined && sha256(forRun.content) === sha256(content)) return true;
  return store.isTrusted({ path: found.path, content });
}

/** `cwd`: the directory the run is for (an editor's project for `acp`); where mcp-chat started by default. */
export async function createRuntime(
  options: GlobalOptions,
  hooks: RuntimeHooks,
  cwd: string = process.cwd(),
): Promise<Runtime> {
  // Security: the stores are located before any .env is read, so a .env cannot move them (XDG_STATE_HOME).
  const store = openTrustStore();
  const toolPins = { dir: toolPinsDir(process.env), acceptForRun: options.acceptToolChanges === true };
  const load: LoadConfigOptions = {
    configPath: options.config,
    cwd,
    env: process.env,
    flags: { model: options.model, host: options.host },
    packageConfigPath: SHIPPED_CONFIG_PATH,
  };
  const found = await passTrustGate({
    load,
    store,
    trustOnce: options.trust === true,
    packageRoot: PACKAGE_ROOT,
    askTrust: hooks.askTrust,
    notify: hooks.notify,
    ...(hooks.warn ? { warn: hooks.warn } : {}),
  });
  const config = withThinkFlag(loadConfigContent(found.path, found.content, load), options.think);
  const debug = options.debug === true;
  const log = openLogger({ ...config.logging, level: debug ? 'debug' : config.logging.level });
  if (store.problem) log.warn({ trustFile: store.file }, `trust store ignored: ${store.problem}`);
  for (const line of found.refused) log.warn(line);
  log.info({ config: config.source, origin: found.origin, model: config.ollama.model }, 'mcp-chat starting');
  const alwaysTrusted = sameDirectory(cwd, PACKAGE_ROOT);
  const read = (): AppConfig => {
    // Security: one read, checked then loaded. A working directory's config runs only as trusted,
    // in the store or for this run (--trust, a yes): an edit made while the chat runs is neither.
    const content = readConfigBytes(found.path);
    if (found.origin === 'cwd' && !alwaysTrusted && !trustedNow(found, content, store))
      // What to do is in the message itself: the REPL shows a reload's error as one line, without hints.
      throw new ConfigError(
        `${found.path} has changed since it was trusted, so the change is not used: ` +
          'run `mcp-chat trust` in this directory to trust it as it is now, then /reload',
      );
    return withThinkFlag(loadConfigContent(found.path, content, load), options.think);
  };
  return { config, log, debug, configFile: { path: found.path, read }, toolPins };
}
