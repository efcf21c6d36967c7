/**
 * `mcp-chat trust [--forget | --list]`: trusts the working directory's `mcp_config.json` and
 * `.env` as they are now, printing what they would run and set; forgets them; or lists every
 * trusted file. The remembered hash makes an edited file untrusted again.
 */
import path from 'node:path';
import { CONFIG_FILE_NAME, parseConfigFile, parseDotEnv } from '../config/load.js';
import { sha256, snapshot, type FileSnapshot, type TrustStore } from '../state/trust-store.js';
import { describeConfig, describeDotEnv } from '../config/trust-summary.js';
import { openTrustStore } from '../session/runtime.js';
import { ollamaOverride, sameDirectory } from '../session/trust-gate.js';
import { ExitCode, UsageError } from '../shared/errors.js';
import { PACKAGE_ROOT } from '../shared/paths.js';
import type { Output } from './output.js';

export interface TrustOptions {
  forget?: boolean;
  list?: boolean;
  /** `--host`: where the chat would go, over `OLLAMA_HOST` and the file. */
  host?: string;
}

function workingFiles(cwd: string): string[] {
  return [path.join(cwd, CONFIG_FILE_NAME), path.join(cwd, '.env')];
}

export function trustCommand(output: Output, options: TrustOptions): number {
  if (options.forget && options.list) throw new UsageError('--forget and --list go alone');
  const cwd = process.cwd();
  const store = openTrustStore();
  const code = options.list
    ? list(store, output)
    : options.forget
      ? forget(store, cwd, output)
      : trust(store, cwd, output, options.host);
  if (store.problem) output.warn(store.problem);
  return code;
}

function trust(store: TrustStore, cwd: string, output: Output, host: string | undefined): number {
  if (sameDirectory(cwd, PACKAGE_ROOT)) {
    output.stdout(`${cwd} is mcp-chat's own directory: its files are always trusted.`);
    return ExitCode.ok;
  }
  const [config, dotEnv] = workingFiles(cwd).map(snapshot);
  const files = [config, dotEnv].filter((file): file is FileSnapshot => file !== undefined);
  if (files.length === 0) throw new UsageError(`nothing to trust in ${cwd}: no ${CONFIG_FILE_NAME} and no .env`);
  // Validated first: a file that cannot be used is not trusted either. Security: what is shown,
  // validated and hashed are the same bytes, read once (snapshot), so nothing unseen is trusted.
  // The address the chat would really use, as the REPL's question names it.
  const override = ollamaOverride({ flags: host === undefined ? {} : { host }, env: process.env });
  const lines = config ? describeConfig(config.path, parseConfigFile(config.path, config.content), cwd, override) : [];
  if (dotEnv) lines.push(...describeDotEnv(dotEnv.path, parseDotEnv(dotEnv.content)));
  store.trust(files);
  output.stdout(
    [
      'Trusted, as they are now:',
      ...lines,
      `Remembered in ${store.file} until a file changes; \`mcp-chat trust --forget\` undoes it.`,
    ].join('\n'),
  );
  return ExitCode.ok;
}

function forget(store: TrustStore, cwd: string, output: Output): number {
  const forgotten = store.forget(workingFiles(cwd));
  output.stdout(
    forgotten.length > 0 ? forgotten.map((file) => `forgot ${file}`).join('\n') : `nothing in ${cwd} was trusted`,
  );
  return ExitCode.ok;
}

function list(store: TrustStore, output: Output): number {
  const entries = store.list();
  if (entries.length === 0) {
    output.stdout(`nothing is trusted (${store.file})`);
    return ExitCode.ok;
  }
  const rows = entries.map((entry) => {
    const now = snapshot(entry.path);
    const state = now === undefined ? 'missing' : sha256(now.content) === entry.sha256 ? 'trusted' : 'changed';
    return `${state.padEnd(8)}${entry.path}  (${entry.trustedAt})`;
  });
  output.stdout(rows.join('\n'));
  return ExitCode.ok;
}
