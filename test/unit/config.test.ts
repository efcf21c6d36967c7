import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findConfigFile, loadConfig, loadDotEnv, type LoadConfigOptions } from '../../src/config.js';
import { normalizeOllamaUrl } from '../../src/config/ollama-url.js';
import { isRelativePathArgument } from '../../src/config/resolve-server.js';
import type { RemoteServerConfig, StdioServerConfig } from '../../src/config/types.js';
import { ConfigError } from '../../src/errors.js';
import { REPO_ROOT } from '../helpers/server-configs.js';

let dir: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-config-')));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(relative: string, content: unknown): string {
  const file = path.join(dir, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

function options(overrides: Partial<LoadConfigOptions> = {}): LoadConfigOptions {
  return {
    cwd: path.join(dir, 'work'),
    env: {},
    packageConfigPath: path.join(REPO_ROOT, 'mcp_config.json'),
    xdgConfigHome: path.join(dir, 'xdg'),
    ...overrides,
  };
}

function errorOf(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

const minimal = { mcpServers: { calc: { command: 'node', args: ['calc.js'] } } };

describe('config discovery', () => {
  it('prefers --config, then MCP_CHAT_CONFIG, then ./mcp_config.json, then XDG, then the shipped file', () => {
    const flag = write('flag.json', minimal);
    const fromEnv = write('env.json', minimal);
    const local = write('work/mcp_config.json', minimal);
    const xdg = write('xdg/mcp-chat/mcp_config.json', minimal);
    const env = { MCP_CHAT_CONFIG: fromEnv };
    expect(findConfigFile(options({ configPath: flag, env }))).toBe(flag);
    expect(findConfigFile(options({ env }))).toBe(fromEnv);
    expect(findConfigFile(options({ env: { MCP_CHAT_CONFIG: '' } }))).toBe(local);
    fs.rmSync(local);
    expect(findConfigFile(options())).toBe(xdg);
    fs.rmSync(xdg);
    expect(findConfigFile(options())).toBe(path.join(REPO_ROOT, 'mcp_config.json'));
  });

  it('names an explicit file that does not exist', () => {
    expect(errorOf(() => loadConfig(options({ configPath: 'nope.json' }))).message).toContain('nope.json (from --config)');
    expect(errorOf(() => loadConfig(options({ env: { MCP_CHAT_CONFIG: '/x/y.json' } }))).message).toContain('/x/y.json (from MCP_CHAT_CONFIG)');
  });

  it('reports invalid JSON with the file and the parser position', () => {
    const file = write('bad.json', '{"mcpServers": {,}}');
    const error = errorOf(() => loadConfig(options({ configPath: file })));
    expect(error.message).toContain(file);
    expect(error.message).toMatch(/not valid JSON.*position/);
    expect(error.exitCode).toBe(2);
  });
});

describe('config validation', () => {
  it('names the JSON path of every bad field and what was expected', () => {
    const file = write('c.json', { mcpServers: { calc: { command: 'node', args: ['a', 3] }, web: { type: 'http' } }, ollama: { num_ctx: 'big' } });
    const message = errorOf(() => loadConfig(options({ configPath: file }))).message;
    expect(message).toContain('mcpServers.calc.args[1]: Invalid input: expected string, received number');
    expect(message).toContain('mcpServers.web.url: a "http" server needs "url"');
    expect(message).toContain('ollama.num_ctx: Invalid input: expected number, received string');
  });

  it('refuses both mcpServers and mcp_servers, and bad server names', () => {
    const both = write('b.json', { mcpServers: {}, mcp_servers: {} });
    expect(errorOf(() => loadConfig(options({ configPath: both }))).message).toContain('not both');
    const badName = write('n.json', { mcpServers: { 'my server': { command: 'x' } } });
    expect(errorOf(() => loadConfig(options({ configPath: badName }))).message).toContain('server names may use only');
  });

  it('accepts mcp_servers as an alias', () => {
    const file = write('a.json', { mcp_servers: minimal.mcpServers });
    expect(loadConfig(options({ configPath: file })).servers.map((s) => s.name)).toEqual(['calc']);
  });

  it('loads a Claude Desktop file unchanged', () => {
    const file = write('claude_desktop_config.json', {
      globalShortcut: 'Ctrl+Space',
      mcpServers: {
        filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/Desktop'] },
        github: { command: 'docker', args: ['run', '-i', '--rm', '-e', 'GITHUB_PERSONAL_ACCESS_TOKEN', 'ghcr.io/github/github-mcp-server'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'tok' } },
      },
    });
    const config = loadConfig(options({ configPath: file }));
    const fsServer = config.servers[0] as StdioServerConfig;
    expect(fsServer).toMatchObject({ kind: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/Desktop'] });
    expect(config.servers[1]).toMatchObject({ env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'tok' } });
  });

  it('fuzz: any JSON value as a config file gives a config or a ConfigError, never a crash', () => {
    const file = path.join(dir, 'fuzz.json');
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        fs.writeFileSync(file, JSON.stringify(value));
        try {
          loadConfig(options({ configPath: file }));
        } catch (error) {
          expect(error).toBeInstanceOf(ConfigError);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('config resolution', () => {
  it('fills defaults and every server field', () => {
    const file = write('work/mcp_config.json', {
      mcpServers: {
        calc: { command: 'node', args: ['./calc.js', '--flag'], timeout: 5, alwaysAllow: ['evaluate'], description: 'Math' },
        web: { url: 'https://example.com/mcp', headers: { 'X-Key': 'k' }, ca: 'certs/ca.pem' },
        pinned: { type: 'sse', url: 'http://127.0.0.1:9/sse' },
        off: { command: 'node', disabled: true },
      },
    });
    const config = loadConfig(options());
    expect(config.source).toBe(file);
    expect(config.ollama).toEqual({ baseUrl: 'http://127.0.0.1:11434', model: 'llama3.2', timeoutMs: 120_000, numCtx: 8192, toolMode: 'auto', options: {} });
    expect(config.history).toEqual({ maxMessages: 10 });
    expect(config.logging).toEqual({ level: 'info', file: path.join(dir, 'work/logs/mcp-chat.log') });
    const calc = config.servers[0] as StdioServerConfig;
    expect(calc).toEqual({
      kind: 'stdio', name: 'calc', command: 'node', args: [path.join(dir, 'work/calc.js'), '--flag'], env: {},
      cwd: path.join(dir, 'work'), timeoutMs: 5000, alwaysAllow: ['evaluate'], description: 'Math',
    });
    expect(config.servers[1] as RemoteServerConfig).toMatchObject({ kind: 'remote', transport: 'auto', headers: { 'X-Key': 'k' }, ca: path.join(dir, 'work/certs/ca.pem'), timeoutMs: 60_000 });
    expect(config.servers[2]).toMatchObject({ kind: 'remote', transport: 'sse' });
    expect(config.disabled).toEqual([{ name: 'off', reason: 'disabled in config' }]);
  });

  it('expands ${VAR}, ${VAR:-default} and ${PWD}', () => {
    const file = write('c.json', {
      mcpServers: {
        s: { command: '${NODE_BIN:-node}', args: ['${PWD}', '--key=${KEY}'], env: { A: '${KEY}', B: '${UNSET:-fallback}' }, cwd: '${PWD}' },
      },
    });
    const server = loadConfig(options({ configPath: file, env: { KEY: 'k1', PWD: '/elsewhere' } })).servers[0] as StdioServerConfig;
    expect(server).toMatchObject({ command: 'node', args: [path.join(dir, 'work'), '--key=k1'], env: { A: 'k1', B: 'fallback' }, cwd: path.join(dir, 'work') });
  });

  it('disables only the server whose variable is missing, naming the variable, and never sends an empty token', () => {
    const file = write('c.json', {
      mcpServers: {
        github: { url: 'https://api.example.com/mcp', headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' } },
        calc: { command: 'node' },
      },
    });
    for (const env of [{}, { GITHUB_TOKEN: '' }]) {
      const config = loadConfig(options({ configPath: file, env }));
      expect(config.servers.map((s) => s.name)).toEqual(['calc']);
      expect(config.disabled).toEqual([{ name: 'github', reason: 'missing environment variable GITHUB_TOKEN (used in headers.Authorization)' }]);
    }
    const withToken = loadConfig(options({ configPath: file, env: { GITHUB_TOKEN: 'ghp_x' } }));
    expect(withToken.servers[0]).toMatchObject({ headers: { Authorization: 'Bearer ghp_x' } });
  });

  it('resolves cwd and relative arguments against the config file directory', () => {
    write('proj/dist/server.js', '');
    const file = write('proj/mcp_config.json', { mcpServers: { s: { command: 'node', args: ['dist/server.js', 'missing/file.js', '-y'] }, t: { command: './bin/run', cwd: 'sub' } } });
    const config = loadConfig(options({ configPath: file }));
    expect(config.servers[0]).toMatchObject({ cwd: path.join(dir, 'proj'), args: [path.join(dir, 'proj/dist/server.js'), 'missing/file.js', '-y'] });
    expect(config.servers[1]).toMatchObject({ cwd: path.join(dir, 'proj/sub'), command: path.join(dir, 'proj/sub/bin/run') });
  });

  it('applies overrides: flags over environment over file', () => {
    const file = write('c.json', { ...minimal, ollama: { base_url: 'http://file:1', model: 'file-model', tool_mode: 'json', options: { temperature: 0 } }, logging: { level: 'warn', file: '/tmp/a.log' } });
    const fromFile = loadConfig(options({ configPath: file }));
    expect(fromFile.ollama).toMatchObject({ baseUrl: 'http://file:1', model: 'file-model', toolMode: 'json', options: { temperature: 0 } });
    expect(fromFile.logging).toEqual({ level: 'warn', file: '/tmp/a.log' });
    const env = { OLLAMA_HOST: 'envhost:2', MCP_CHAT_MODEL: 'env-model', MCP_CHAT_LOG_LEVEL: 'debug', MCP_CHAT_LOG_FILE: 'x.log' };
    const fromEnv = loadConfig(options({ configPath: file, env }));
    expect(fromEnv.ollama).toMatchObject({ baseUrl: 'http://envhost:2', model: 'env-model' });
    expect(fromEnv.logging).toEqual({ level: 'debug', file: path.join(dir, 'work/x.log') });
    const fromFlags = loadConfig(options({ configPath: file, env, flags: { host: 'flaghost', model: 'flag-model' } }));
    expect(fromFlags.ollama).toMatchObject({ baseUrl: 'http://flaghost:11434', model: 'flag-model' });
  });

  it('loads the shipped mcp_config.json with the three local servers as absolute paths', () => {
    const config = loadConfig(options());
    expect(config.source).toBe(path.join(REPO_ROOT, 'mcp_config.json'));
    for (const name of ['calculator', 'file', 'research']) {
      const server = config.servers.find((s) => s.name === name) as StdioServerConfig;
      expect(server.args[0]).toBe(path.join(REPO_ROOT, `dist/servers/${name}/main.js`));
    }
    expect((config.servers.find((s) => s.name === 'file') as StdioServerConfig).args[1]).toBe(path.join(dir, 'work'));
  });
});

describe('helpers', () => {
  it.each([
    ['localhost:11434', 'http://localhost:11434'],
    ['127.0.0.1', 'http://127.0.0.1:11434'],
    ['0.0.0.0:11434', 'http://127.0.0.1:11434'],
    ['http://ollama.lan:8080/', 'http://ollama.lan:8080'],
    ['https://ollama.example.com', 'https://ollama.example.com'],
  ])('normalises the Ollama URL %s → %s', (input, expected) => {
    expect(normalizeOllamaUrl(input, 'test')).toBe(expected);
  });

  it('rejects an Ollama URL it cannot use, naming its origin', () => {
    expect(errorOf(() => normalizeOllamaUrl('ftp://x', 'OLLAMA_HOST')).message).toContain('(from OLLAMA_HOST)');
    expect(errorOf(() => normalizeOllamaUrl('http://[bad', '--host')).message).toContain('(from --host)');
  });

  it('tells path arguments from commands and flags', () => {
    write('a/b.js', '');
    expect(isRelativePathArgument('./x', dir)).toBe(true);
    expect(isRelativePathArgument('../x', dir)).toBe(true);
    expect(isRelativePathArgument('a/b.js', dir)).toBe(true);
    expect(isRelativePathArgument('a/missing.js', dir)).toBe(false);
    expect(isRelativePathArgument('node', dir)).toBe(false);
    expect(isRelativePathArgument('-y', dir)).toBe(false);
    expect(isRelativePathArgument('--root=./x', dir)).toBe(false);
    expect(isRelativePathArgument('/abs', dir)).toBe(false);
  });

  it('loads .env without overriding variables already set', () => {
    write('work/.env', 'MCP_CHAT_TEST_A=from-file\nMCP_CHAT_TEST_B=from-file\n');
    process.env.MCP_CHAT_TEST_B = 'already-set';
    loadDotEnv(path.join(dir, 'work'));
    expect(process.env.MCP_CHAT_TEST_A).toBe('from-file');
    expect(process.env.MCP_CHAT_TEST_B).toBe('already-set');
    delete process.env.MCP_CHAT_TEST_A;
    delete process.env.MCP_CHAT_TEST_B;
  });
});
