/**
 * The trust gate: `./mcp_config.json` and `./.env` in the working directory are someone else's
 * (a cloned repository's) until the user trusts them. A trusted `.env` is loaded; an untrusted one
 * is not, with a notice. An untrusted config is refused (scripts) or asked about (the REPL), and
 * on "no" discovery goes on to the user's own config or the shipped one. Never prompts itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  applyDotEnv,
  discoverConfigFile,
  dotEnvNames,
  readConfigFile,
  type FoundConfig,
  type LoadConfigOptions,
} from '../config/load.js';
import { describeConfig, describeDotEnv } from '../config/trust-summary.js';
import { snapshot, type FileSnapshot, type TrustStore } from '../state/trust-store.js';
import { ConfigError, errorMessage } from '../shared/errors.js';

/** What the REPL shows before anything starts. Raw text: the printer makes it inert. */
export interface TrustQuestion {
  directory: string;
  /** What trusting would run, connect to and load: paths, command lines, URLs, variable names. */
  lines: string[];
  /** The config used instead when the answer is no. */
  fallback: string;
}

export type TrustAnswer = 'trust' | 'skip';
export type TrustAsker = (question: TrustQuestion) => Promise<TrustAnswer>;

export interface GateOptions {
  /** Discovery's options; `env` is where a trusted `.env` is applied (`process.env`). */
  load: LoadConfigOptions;
  store: TrustStore;
  /** `--trust`: both files count as trusted for this run, and nothing is remembered. */
  trustOnce: boolean;
  /** The package's own directory: its files are the shipped ones and the developer's own. */
  packageRoot: string;
  /** The REPL's question; without one (scripts) an untrusted config is refused. */
  askTrust?: TrustAsker;
  /** One line for the user: a `.env` not loaded, a config not used. */
  notify: (line: string) => void;
}

const HOW_TO_TRUST = 'run `mcp-chat trust` in this directory to trust it, or add --trust for this run only';

function realDir(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

/** The same directory, however it is reached (a symlinked checkout, `npm link`). */
export function sameDirectory(a: string, b: string): boolean {
  return realDir(a) === realDir(b);
}

/** Why a file is not trusted: never trusted, or changed since. */
function whyUntrusted(store: TrustStore, file: FileSnapshot): string {
  const remembered = store.list().some((entry) => entry.path === file.path);
  return remembered ? 'has changed since you trusted it' : 'is not trusted';
}

function refusal(store: TrustStore, file: FileSnapshot): ConfigError {
  const why = whyUntrusted(store, file);
  // Said here because a damaged store is why a file trusted before is refused now.
  const damaged = store.problem ? `\n(${store.problem})` : '';
  return new ConfigError(
    `${file.path} is in the working directory and ${why}: ` +
      'a config can start any command and pass it your environment variables',
    `Read it, then ${HOW_TO_TRUST}${damaged}`,
  );
}

function describeFallback(found: FoundConfig): string {
  return found.origin === 'user' ? `your own ${found.path}` : `the shipped configuration ${found.path}`;
}

/** Applies a trusted `.env` and returns the config discovery settles on, asking or refusing on the way. */
export async function passTrustGate(options: GateOptions): Promise<FoundConfig> {
  const { load, store } = options;
  const trustAll = options.trustOnce || sameDirectory(load.cwd, options.packageRoot);
  const trusted = (file: FileSnapshot): boolean => trustAll || store.isTrusted(file);
  const dotEnv = snapshot(path.join(load.cwd, '.env'));
  let dotEnvLoaded = dotEnv !== undefined && trusted(dotEnv);
  if (dotEnv && dotEnvLoaded) applyDotEnv(dotEnv.content, load.env);

  let found = discoverConfigFile(load);
  const local = found.origin === 'cwd' ? snapshot(found.path) : undefined;
  if (found.origin === 'cwd' && !(local && trusted(local))) {
    if (!local) throw new ConfigError(`${found.path} could not be read`);
    if (!options.askTrust) throw refusal(store, local);
    const fallback = discoverConfigFile({ ...load, skipWorkingDirectory: true });
    const pendingDotEnv = dotEnv && !dotEnvLoaded ? dotEnv : undefined;
    const lines = describeConfig(local.path, readConfigFile(local.path));
    if (pendingDotEnv) lines.push(describeDotEnv(pendingDotEnv.path, dotEnvNames(pendingDotEnv.content)));
    const answer = await options.askTrust({ directory: load.cwd, lines, fallback: describeFallback(fallback) });
    if (answer === 'trust') {
      remember(options, pendingDotEnv ? [local, pendingDotEnv] : [local]);
      if (pendingDotEnv) {
        applyDotEnv(pendingDotEnv.content, load.env);
        dotEnvLoaded = true;
      }
      // The .env just loaded may name another config (MCP_CHAT_CONFIG).
      found = discoverConfigFile(load);
    } else {
      found = fallback;
      options.notify(`not using ${local.path} (not trusted); using ${describeFallback(fallback)} instead`);
    }
  }
  if (dotEnv && !dotEnvLoaded) {
    options.notify(`${dotEnv.path} was not loaded: it ${whyUntrusted(store, dotEnv)}; ${HOW_TO_TRUST}`);
  }
  return found;
}

/** A store that cannot be written costs only the memory of the answer: this run goes on trusted. */
function remember(options: GateOptions, files: FileSnapshot[]): void {
  try {
    options.store.trust(files);
  } catch (error) {
    options.notify(`trusted for this run only: could not write ${options.store.file}: ${errorMessage(error)}`);
  }
}
