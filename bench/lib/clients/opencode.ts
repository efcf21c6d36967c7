/**
 * opencode as a peer row runs it: `opencode run` with a custom OpenAI-compatible provider
 * (`@ai-sdk/openai-compatible`, which calls `/v1/chat/completions`) pointed at the scripted
 * model, set in its global config, with the MCP server as a local one. The machine is offline,
 * so its update check, models.dev catalogue fetch, LSP downloads and sharing are turned off.
 */
import fs from 'node:fs';
import path from 'node:path';
import { clientDirs, type Client, type ClientWorld } from './client.js';

const PROVIDER = 'scripted';

function config(world: ClientWorld): Record<string, unknown> {
  const { name, command, args } = world.server;
  return {
    $schema: 'https://opencode.ai/config.json',
    provider: {
      [PROVIDER]: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Scripted model',
        options: { baseURL: `${world.modelUrl}/v1` },
        models: { [world.model]: { name: world.model, tool_call: true } },
      },
    },
    model: `${PROVIDER}/${world.model}`,
    mcp: { [name]: { type: 'local', command: [command, ...args], enabled: true } },
    autoupdate: false,
    share: 'disabled',
  };
}

const OFFLINE_ENV = {
  OPENCODE_DISABLE_AUTOUPDATE: 'true',
  OPENCODE_DISABLE_MODELS_FETCH: 'true',
  OPENCODE_DISABLE_LSP_DOWNLOAD: 'true',
  OPENCODE_DISABLE_SHARE: 'true',
};

export function opencodeClient(world: ClientWorld, binary: string, version: string): Client {
  const dirs = clientDirs(world);
  const configDir = path.join(dirs.env.XDG_CONFIG_HOME as string, 'opencode');
  fs.mkdirSync(configDir, { recursive: true });
  fs.writeFileSync(path.join(configDir, 'opencode.json'), JSON.stringify(config(world), null, 2));
  return {
    id: 'opencode',
    label: `opencode run (${version})`,
    launch: (prompt) => ({
      command: binary,
      args: ['run', prompt],
      cwd: dirs.cwd,
      env: { ...dirs.env, ...OFFLINE_ENV },
    }),
  };
}
