/**
 * The lines the trust question and `mcp-chat trust` show: everything in a config that decides what
 * runs and what it may do unasked, with paths as they resolve, and no secret value.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseDotEnv } from '../../src/config/load.js';
import { configFileSchema, type ConfigFile } from '../../src/config/schema.js';
import { describeConfig, describeDotEnv } from '../../src/config/trust-summary.js';
import { REPO_ROOT } from '../helpers/server-configs.js';

let repo: string;
beforeEach(() => {
  repo = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-trust-summary-')));
});
afterEach(() => fs.rmSync(repo, { recursive: true, force: true }));

const summarise = (file: unknown): string[] =>
  describeConfig(path.join(repo, 'mcp_config.json'), configFileSchema.parse(file) as ConfigFile, repo);

describe('describeConfig', () => {
  it('hidden loader: resolves relative paths and ${PWD} as the loader does, and shows the cwd it runs in', () => {
    fs.mkdirSync(path.join(repo, 'tools'));
    fs.writeFileSync(path.join(repo, 'tools', 'server.js'), '');
    const lines = summarise({
      mcpServers: { s: { command: './bin/run', args: ['server.js', '${PWD}/x', '-y'], cwd: 'tools' } },
    });
    expect(lines).toContain(
      `  s: runs ${path.join(repo, 'tools/bin/run')} server.js ${repo}/x -y (in ${path.join(repo, 'tools')})`,
    );
  });

  it('hidden loader: env values are shown unless the name is a secret, and loader variables always are', () => {
    const lines = summarise({
      mcpServers: {
        s: {
          command: 'node',
          env: {
            PATH: '/tmp/evil:/usr/bin',
            LD_PRELOAD_TOKEN: 'x.so',
            GITHUB_TOKEN: '${GITHUB_TOKEN}',
            DB_PASSWORD: 'p',
          },
        },
      },
    });
    expect(lines).toContain(
      '    env: PATH=/tmp/evil:/usr/bin, LD_PRELOAD_TOKEN=x.so, GITHUB_TOKEN=(secret, not shown), DB_PASSWORD=(secret, not shown)',
    );
  });

  it("says which servers are trusted by default as mcp-chat's own, and which only by the file's word", () => {
    const ours = path.join(REPO_ROOT, 'dist/servers/calculator/main.js');
    const lines = summarise({
      mcpServers: {
        ours: { command: 'node', args: [ours] },
        said: { command: 'node', args: ['x.js'], trust: true, alwaysAllow: ['a', 'b'] },
        lookalike: { command: 'bash', args: ['-c', 'evil', ours] },
      },
    });
    expect(lines).toContain(
      "    alwaysAllow: none · trust: yes (mcp-chat's own server) · sampling: ask · elicitation: ask",
    );
    expect(lines).toContain('    alwaysAllow: a, b · trust: yes · sampling: ask · elicitation: ask');
    expect(lines.filter((line) => line.includes('trust: no'))).toHaveLength(1);
  });

  it('shows remote headers by name only, a custom CA, the log file and the roots', () => {
    const lines = summarise({
      mcpServers: {
        web: { url: 'https://example.test/mcp', headers: { Authorization: 'Bearer sk-live-secret' }, ca: 'ca.pem' },
      },
      logging: { file: '../elsewhere.log' },
      roots: ['data'],
    });
    expect(lines.join('\n')).not.toContain('sk-live-secret');
    expect(lines).toContain('  web: connects to https://example.test/mcp');
    expect(lines).toContain('    sends the headers Authorization');
    expect(lines).toContain(`    trusts the CA in ${path.join(repo, 'ca.pem')}`);
    expect(lines).toContain(`  writes its log to ${path.resolve(repo, '../elsewhere.log')}`);
    expect(lines).toContain(`  offers the servers the roots ${path.join(repo, 'data')}`);
  });

  it('quotes what is not plain, so a line break or a bidi override cannot disguise a value', () => {
    const lines = summarise({ mcpServers: { s: { command: 'node', env: { NODE_OPTIONS: '--require x\n\u202ey' } } } });
    expect(lines).toContain('    env: NODE_OPTIONS="--require x\\n\\u202ey"');
  });
});

describe('describeDotEnv', () => {
  it('names what a .env sets, shows where the chat goes, and gives one line per refused variable', () => {
    const text = 'GITHUB_TOKEN=ghp_x\nOLLAMA_HOST=http://10.0.0.1:11434\nMCP_CHAT_CONFIG=/tmp/x.json\n';
    expect(describeDotEnv('/r/.env', parseDotEnv(Buffer.from(text)))).toEqual([
      '/r/.env: sets GITHUB_TOKEN, OLLAMA_HOST=http://10.0.0.1:11434',
      "/r/.env: MCP_CHAT_CONFIG is not used: a project's .env may not choose the config (that file was never shown " +
        'to you or trusted); pass --config or set it in your shell',
    ]);
  });
});
