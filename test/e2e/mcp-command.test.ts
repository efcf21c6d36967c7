/**
 * `mcp-chat mcp add|remove|list` through the built binary: they edit the config file in place
 * (the rest of it as written), refuse what would break it, and a user config made by the first
 * `add` keeps the shipped servers working from any directory.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../helpers/run-cli.js';

let home: string;
const RUN_MS = 60_000;

beforeAll(() => {
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-edit-')));
});
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

function cli(args: string[]) {
  const env = cleanEnv({ HOME: home, XDG_CONFIG_HOME: path.join(home, 'config') });
  return runCli(args, { cwd: home, env, timeoutMs: RUN_MS });
}

describe('mcp add, remove, list', () => {
  it(
    'edits the file --config names: an entry added or removed, the rest as written; a name taken is exit 2',
    async () => {
      const file = path.join(home, 'own.json');
      const original = '{\n  "ollama": { "model": "qwen3" },\n  "mcpServers": {}\n}\n';
      fs.writeFileSync(file, original);
      const added = await cli([
        'mcp',
        'add',
        'memory',
        '--config',
        file,
        '-e',
        'MEMORY_FILE=/tmp/m.json',
        '--',
        'npx',
        '-y',
        'server-memory',
      ]);
      expect(added).toMatchObject({ code: 0, stdout: `Added server "memory" to ${file}.\n` });
      const web = await cli([
        'mcp',
        'add',
        'web',
        'https://example.com/mcp',
        '-H',
        'Authorization: Bearer x',
        '--config',
        file,
      ]);
      expect(web.code).toBe(0);
      expect(fs.readFileSync(file, 'utf8')).toContain('"ollama": { "model": "qwen3" },');
      const listed = await cli(['mcp', 'list', '--json', '--config', file]);
      expect(JSON.parse(listed.stdout)).toEqual([
        { name: 'memory', type: 'stdio', command: 'npx', args: ['-y', 'server-memory'] },
        { name: 'web', type: 'remote', url: 'https://example.com/mcp' },
      ]);
      expect(JSON.parse(fs.readFileSync(file, 'utf8')).mcpServers).toEqual({
        memory: { command: 'npx', args: ['-y', 'server-memory'], env: { MEMORY_FILE: '/tmp/m.json' } },
        web: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' } },
      });
      const again = await cli(['mcp', 'add', 'memory', '--config', file, '--', 'node', 'x.js']);
      expect(again.code).toBe(2);
      expect(again.stderr).toContain(`${file} already has a server "memory"`);
      expect(again.stderr).toContain('Pass --force to replace it');
      const removed = await cli(['mcp', 'remove', 'web', '--config', file]);
      expect(removed.stdout).toBe(`Removed server "web" from ${file}.\n`);
      const missing = await cli(['mcp', 'remove', 'web', '--config', file]);
      expect(missing).toMatchObject({ code: 2 });
      expect(missing.stderr).toContain('has no server "web" (its servers: memory)');
    },
    RUN_MS,
  );

  it(
    'refuses an edit that would make the config invalid, and leaves the file as it was',
    async () => {
      const file = path.join(home, 'strict.json');
      const original = '{ "mcpServers": {} }\n';
      fs.writeFileSync(file, original);
      const bad = await cli(['mcp', 'add', 'two words', '--config', file, '--', 'node', 'x.js']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('invalid name');
      expect(fs.readFileSync(file, 'utf8')).toBe(original);
      const noTarget = await cli(['mcp', 'add', 'x', '--config', file, '--header', 'A: b', '--', 'node']);
      expect(noTarget.stderr).toContain('--header is for a URL; a command takes --env');
    },
    RUN_MS,
  );

  it(
    'the first add makes the user config from the shipped one: its servers still start, from any directory',
    async () => {
      const added = await cli(['mcp', 'add', 'extra', '--', 'node', 'nowhere.js']);
      const file = path.join(home, 'config/mcp-chat/mcp_config.json');
      expect(added.stdout).toBe(
        `Added server "extra" to ${file} (made from the shipped config, whose servers it keeps).\n`,
      );
      const names = (JSON.parse((await cli(['mcp', 'list', '--json'])).stdout) as { name: string }[]).map(
        (row) => row.name,
      );
      expect(names).toEqual(['calculator', 'file', 'research', 'github', 'extra']);
      const tools = await cli(['tools', '--json']);
      const servers = new Set((JSON.parse(tools.stdout) as { server: string }[]).map((tool) => tool.server));
      expect([...servers].sort()).toEqual(['calculator', 'file', 'research']);
      expect(tools.stderr).toContain('extra: failed to start');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    },
    RUN_MS,
  );
});
