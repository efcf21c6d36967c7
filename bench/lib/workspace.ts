/**
 * The world of the in-process quality benchmarks (the detector, tool selection, sessions): a
 * throwaway directory with an mcp_config.json naming the three local servers (absolute paths
 * into the build), a clean environment for the children they start, and the configuration as
 * mcp-chat resolves it. The process-level benchmarks set up their own (bench/lib/clients/).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import type { AppConfig } from '../../src/config/types.js';
import { SHIPPED_CONFIG_PATH } from '../../src/shared/paths.js';
import { CLI, serverMain } from './paths.js';

export { CLI };

export interface Workspace {
  dir: string;
  configPath: string;
  /** Environment for an `mcp-chat` child: nothing of ours leaks in; Ollama is `ollamaUrl`. */
  env(ollamaUrl?: string): Record<string, string>;
  /** The configuration as `mcp-chat` resolves it from this workspace. */
  config(ollamaUrl: string): AppConfig;
  remove(): void;
}

function mcpServers(dir: string): Record<string, { command: string; args: string[]; env: Record<string, string> }> {
  return {
    calculator: { command: process.execPath, args: [serverMain('calculator')], env: {} },
    file: { command: process.execPath, args: [serverMain('file'), dir], env: {} },
    research: {
      command: process.execPath,
      args: [serverMain('research')],
      // Never contacted: no benchmark searches arXiv. Port 9 (discard) fails fast if one ever did.
      env: { ARXIV_API_URL: 'http://127.0.0.1:9/api/query', PAPERS_DIR: path.join(dir, 'papers') },
    },
  };
}

export function createWorkspace(): Workspace {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-chat-bench-')));
  const configPath = path.join(dir, 'mcp_config.json');
  const file = {
    ollama: { model: 'llama3.2' },
    mcpServers: mcpServers(dir),
    logging: { level: 'info', file: path.join(dir, 'mcp-chat.log') },
  };
  fs.writeFileSync(configPath, JSON.stringify(file, null, 2));
  const env = (ollamaUrl?: string): Record<string, string> => ({
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir,
    LANG: 'C.UTF-8',
    TERM: 'xterm-256color',
    ...(ollamaUrl ? { OLLAMA_HOST: ollamaUrl } : {}),
  });
  return {
    dir,
    configPath,
    env,
    config: (ollamaUrl) =>
      loadConfig({ configPath, cwd: dir, env: env(ollamaUrl), packageConfigPath: SHIPPED_CONFIG_PATH }),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
