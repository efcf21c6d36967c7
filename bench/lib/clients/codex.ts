/**
 * codex as a peer row runs it: `codex exec --oss` with the Ollama provider pointed at the
 * scripted model (`CODEX_OSS_BASE_URL`; codex then lists `/v1/models`, asks `/api/version` and
 * `/api/tags`, and talks the Responses API, `/v1/responses`). Its own CODEX_HOME holds a
 * config.toml with the MCP server and, since the machine is offline, without the features that
 * reach OpenAI's or GitHub's servers at start (update check, analytics, plugins, apps).
 */
import fs from 'node:fs';
import path from 'node:path';
import { clientDirs, type Client, type ClientWorld } from './client.js';

/** A TOML basic string: JSON's escapes are TOML's. */
const tomlString = (text: string): string => JSON.stringify(text);

function configToml(world: ClientWorld): string {
  const { name, command, args } = world.server;
  return [
    'check_for_update_on_startup = false',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[features]',
    'plugins = false',
    'remote_plugin = false',
    'apps = false',
    '',
    `[mcp_servers.${name}]`,
    `command = ${tomlString(command)}`,
    `args = [${args.map(tomlString).join(', ')}]`,
    '',
  ].join('\n');
}

export function codexClient(world: ClientWorld, binary: string, version: string): Client {
  const dirs = clientDirs(world);
  const codexHome = path.join(dirs.home, '.codex');
  fs.mkdirSync(codexHome, { recursive: true });
  fs.writeFileSync(path.join(codexHome, 'config.toml'), configToml(world));
  const env = { ...dirs.env, CODEX_HOME: codexHome, CODEX_OSS_BASE_URL: `${world.modelUrl}/v1` };
  return {
    id: 'codex',
    label: `codex exec --oss (${version})`,
    launch: (prompt) => ({
      command: binary,
      args: ['exec', '--oss', '--local-provider', 'ollama', '--skip-git-repo-check', '--color', 'never'].concat([
        '-m',
        world.model,
        prompt,
      ]),
      cwd: dirs.cwd,
      env,
    }),
  };
}
