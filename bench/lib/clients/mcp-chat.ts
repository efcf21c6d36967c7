/**
 * mcp-chat as a peer row runs it: `mcp-chat ask --yes` on the built CLI, its config given
 * with `--config` (a config found in the working directory would need trust first), the
 * scripted model with `--host` and `-m`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CLI } from '../paths.js';
import { clientDirs, type Client, type ClientWorld } from './client.js';

export function mcpChatClient(world: ClientWorld, version: string): Client {
  const dirs = clientDirs(world);
  const configPath = path.join(dirs.home, 'mcp_config.json');
  const { name, command, args } = world.server;
  fs.writeFileSync(configPath, JSON.stringify({ mcpServers: { [name]: { command, args } } }, null, 2));
  return {
    id: 'mcp-chat',
    label: `mcp-chat ask (${version})`,
    launch: (prompt) => ({
      command: process.execPath,
      args: [CLI, 'ask', '--yes', '--config', configPath, '--host', world.modelUrl, '-m', world.model, prompt],
      cwd: dirs.cwd,
      env: dirs.env,
    }),
  };
}
