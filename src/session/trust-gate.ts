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
  parseConfigFile,
  parseDotEnv,
  type FoundConfig,
  type LoadConfigOptions,
} from '../config/load.js';
import { readConfigBytes } from '../config/json-text.js';
import { describeRefused } from '../config/project-env.js';
import { describeConfig, describeDotEnv, type OllamaOverride } from '../config/trust-summary.js';
import { normalizeOllamaUrl } from '../config/ollama-url.js';
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
  /** Lines that must reach the user even where notices are kept quiet (a script's stderr); `notify` when none. */
  warn?: (line: string) => void;
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

/** The config discovery settled on, with its bytes as read once: hashed (when it needs trust), shown and loaded. */
export interface GateResult extends FoundConfig {
  content: Buffer;
  /** Set when the config is the working directory's and was trusted for this run (`--trust`, or a yes). */
  trustedForRun?: FileSnapshot;
  /** What the working directory's `.env` set and was not used (each already said in a notice). */
  refused: string[];
}

/** Applies a trusted `.env` and returns the config discovery settles on, asking or refusing on the way. */
export async function passTrustGate(options: GateOptions): Promise<GateResult> {
  const { load, store } = options;
  const trustAll = options.trustOnce || sameDirectory(load.cwd, options.packageRoot);
  const trusted = (file: FileSnapshot): boolean => trustAll || store.isTrusted(file);
  const dotEnv = snapshot(path.join(load.cwd, '.env'));
  const refused: string[] = [];
  const useDotEnv = (file: FileSnapshot): void => {
    for (const variable of applyDotEnv(file.content, load.env)) {
      const line = describeRefused(file.path, variable);
      refused.push(line);
      // Security: said whoever reads it, scripts' stderr included: a setting the user made is not applied.
      (options.warn ?? options.notify)(line);
    }
  };
  let dotEnvLoaded = dotEnv !== undefined && trusted(dotEnv);
  if (dotEnv && dotEnvLoaded) useDotEnv(dotEnv);

  // Security: discovery cannot be steered by the .env just applied: it may not set MCP_CHAT_CONFIG,
  // XDG_CONFIG_HOME or HOME (project-env.ts), so what is found here is what is asked about.
  const found = discoverConfigFile(load);
  // Security: one read. These bytes are hashed, shown and loaded; the file is never read again for this start.
  const read: FileSnapshot = { path: found.path, content: readConfigBytes(found.path) };
  let result: GateResult = { ...found, content: read.content, refused };
  if (found.origin === 'cwd') {
    if (trusted(read)) result.trustedForRun = read;
    else {
      if (!options.askTrust) throw refusal(store, read);
      const pendingDotEnv = dotEnv && !dotEnvLoaded ? dotEnv : undefined;
      const answer = await ask(options, read, pendingDotEnv);
      if (answer.trust) {
        remember(options, pendingDotEnv ? [read, pendingDotEnv] : [read]);
        if (pendingDotEnv) useDotEnv(pendingDotEnv);
        dotEnvLoaded = true;
        result.trustedForRun = read;
      } else {
        result = { ...answer.fallback, content: readConfigBytes(answer.fallback.path), refused };
        options.notify(`not using ${read.path} (not trusted); using ${describeFallback(answer.fallback)} instead`);
      }
    }
  }
  if (dotEnv && !dotEnvLoaded) {
    options.notify(`${dotEnv.path} was not loaded: it ${whyUntrusted(store, dotEnv)}; ${HOW_TO_TRUST}`);
  }
  return result;
}

/**
 * `--host`, else `OLLAMA_HOST`: they win over the file's `ollama.base_url`, so the question names
 * them, and so does `mcp-chat trust`.
 */
export function ollamaOverride(load: Pick<LoadConfigOptions, 'flags' | 'env'>): OllamaOverride | undefined {
  const host = load.flags?.host ?? load.env.OLLAMA_HOST;
  if (host === undefined) return undefined;
  const origin = load.flags?.host !== undefined ? '--host' : 'OLLAMA_HOST';
  return { url: normalizeOllamaUrl(host, origin), origin };
}

/** The REPL's question about `config` (and an untrusted `.env` beside it), from the bytes read once. */
async function ask(
  options: GateOptions,
  config: FileSnapshot,
  dotEnv: FileSnapshot | undefined,
): Promise<{ trust: true } | { trust: false; fallback: FoundConfig }> {
  const { load } = options;
  const fallback = discoverConfigFile({ ...load, skipWorkingDirectory: true });
  const file = parseConfigFile(config.path, config.content);
  const lines = describeConfig(config.path, file, load.cwd, ollamaOverride(load));
  if (dotEnv) lines.push(...describeDotEnv(dotEnv.path, parseDotEnv(dotEnv.content)));
  const answer = await options.askTrust?.({ directory: load.cwd, lines, fallback: describeFallback(fallback) });
  return answer === 'trust' ? { trust: true } : { trust: false, fallback };
}

/** A store that cannot be written costs only the memory of the answer: this run goes on trusted. */
function remember(options: GateOptions, files: FileSnapshot[]): void {
  try {
    options.store.trust(files);
  } catch (error) {
    options.notify(`trusted for this run only: could not write ${options.store.file}: ${errorMessage(error)}`);
  }
}
