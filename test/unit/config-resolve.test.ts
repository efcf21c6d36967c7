import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { normalizeOllamaUrl } from '../../src/config/ollama-url.js';
import { resolvePathArgument } from '../../src/config/resolve-server.js';
import type { RemoteServerConfig, StdioServerConfig } from '../../src/config/types.js';
import { configErrorOf, SHIPPED_CONFIG, useConfigDir } from '../helpers/config-dir.js';
import { REPO_ROOT } from '../helpers/server-configs.js';

const { root, write, options } = useConfigDir();
const minimal = { mcpServers: { calc: { command: 'node' } } };
const at = (relative: string): string => path.join(root(), relative);

function load(
  content: unknown,
  env: Record<string, string | undefined> = {},
  flags = {},
): ReturnType<typeof loadConfig> {
  return loadConfig(options({ configPath: write('proj/mcp_config.json', content), env, flags }));
}

describe('config defaults and fields', () => {
  it('roots: where mcp-chat started, then the configured ones (relative to the config file), each once', () => {
    expect(load(minimal).roots).toEqual([at('work')]);
    const config = load({ ...minimal, roots: ['notes', '/srv/data', '../work', 'notes/'] });
    expect(config.roots).toEqual([at('work'), at('proj/notes'), '/srv/data']);
  });

  it('fills every default', () => {
    const config = load(minimal);
    expect(config.source).toBe(at('proj/mcp_config.json'));
    expect(config.ollama).toEqual({
      baseUrl: 'http://127.0.0.1:11434',
      model: 'llama3.2',
      timeoutMs: 120_000,
      toolMode: 'auto',
      options: {},
    });
    // No num_ctx by default: Ollama's own context, as it reports it, is the one budgeted by.
    expect(config.ollama).not.toHaveProperty('numCtx');
    // No bound on the messages by default: as many as fit the model's context.
    expect(config.history).toEqual({});
    // The state directory, not the working directory (HOME unset here: the user's own home).
    expect(config.logging).toEqual({
      level: 'info',
      file: path.join(os.homedir(), '.local/state/mcp-chat/logs/mcp-chat.log'),
    });
    expect(config.servers).toEqual([
      {
        kind: 'stdio',
        name: 'calc',
        command: 'node',
        args: [],
        env: {},
        cwd: at('proj'),
        timeoutMs: 60_000,
        alwaysAllow: [],
        alwaysInclude: [],
        trust: false,
        sampling: 'ask',
        elicitation: 'ask',
      },
    ]);
    expect(config.disabled).toEqual([]);
  });

  it('reads every ollama, history and logging field', () => {
    const config = load({
      ...minimal,
      ollama: {
        base_url: 'http://gpu:11434/',
        model: 'qwen3',
        timeout: 1.5,
        num_ctx: 32768,
        tool_mode: 'native',
        options: { temperature: 0, seed: 7 },
      },
      history: { max_messages: 40 },
      logging: { level: 'debug', file: '/var/log/mcp.log' },
    });
    expect(config.ollama).toEqual({
      baseUrl: 'http://gpu:11434',
      model: 'qwen3',
      timeoutMs: 1500,
      numCtx: 32768,
      toolMode: 'native',
      options: { temperature: 0, seed: 7 },
    });
    expect(config.history).toEqual({ maxMessages: 40 });
    expect(config.logging).toEqual({ level: 'debug', file: '/var/log/mcp.log' });
  });

  it('takes a num_ctx given among the model options as the one set: it is the one sent, so it is budgeted by', () => {
    const config = load({ ...minimal, ollama: { options: { num_ctx: 16384, temperature: 0 } } });
    expect(config.ollama).toMatchObject({ numCtx: 16384, options: { num_ctx: 16384, temperature: 0 } });
    const both = load({ ...minimal, ollama: { num_ctx: 4096, options: { num_ctx: 16384 } } });
    expect(both.ollama.numCtx).toBe(16384);
  });

  it('maps every stdio field', () => {
    write('proj/tools/.keep', '');
    const config = load({
      mcpServers: {
        calc: {
          type: 'local',
          command: 'node',
          args: ['./calc.js', '--flag'],
          env: { A: '1' },
          cwd: 'tools',
          timeout: 5,
          alwaysAllow: ['evaluate'],
          alwaysInclude: ['evaluate'],
          trust: true,
          sampling: 'allow',
          elicitation: 'deny',
          circuitBreaker: { failures: 5, cooldown: 10 },
          description: 'Math',
          extra: 'ignored',
        },
      },
    });
    expect(config.servers[0] as StdioServerConfig).toEqual({
      kind: 'stdio',
      name: 'calc',
      command: 'node',
      args: [at('proj/tools/calc.js'), '--flag'],
      env: { A: '1' },
      cwd: at('proj/tools'),
      timeoutMs: 5000,
      alwaysAllow: ['evaluate'],
      alwaysInclude: ['evaluate'],
      trust: true,
      sampling: 'allow',
      elicitation: 'deny',
      breaker: { failures: 5, cooldownMs: 10_000 },
      description: 'Math',
    });
  });

  it('annotation spoofing: trusts by default only the servers mcp-chat ships, never one a config adds', () => {
    const shipped = loadConfig(options({ configPath: SHIPPED_CONFIG, env: { GITHUB_TOKEN: 'ghp_example' } }));
    expect(Object.fromEntries(shipped.servers.map((server) => [server.name, server.trust]))).toEqual({
      calculator: true,
      file: true,
      research: true,
      github: false,
    });
    // A server of its own that sits beside the shipped ones in name only.
    write('proj/dist/servers/calculator/main.js', '');
    const lookalike = load({ mcpServers: { calc: { command: 'node', args: ['dist/servers/calculator/main.js'] } } });
    expect(lookalike.servers[0]?.trust).toBe(false);
  });

  it('lookalike path: only node running a script whose real path is in our dist/servers, with no loader, is ours', () => {
    const ours = path.join(REPO_ROOT, 'dist/servers/calculator/main.js');
    const trustOf = (entry: Record<string, unknown>): boolean | undefined =>
      load({ mcpServers: { calc: { command: 'node', ...entry } } }).servers[0]?.trust;
    write('proj/evil.mjs', '');
    expect(trustOf({ args: ['--import', at('proj/evil.mjs'), ours] })).toBe(false);
    expect(trustOf({ args: [at('proj/evil.mjs'), ours] })).toBe(false);
    expect(trustOf({ command: 'bash', args: ['-c', 'evil', ours] })).toBe(false);
    expect(trustOf({ command: at('proj/node'), args: [ours] })).toBe(false);
    expect(trustOf({ args: [`${REPO_ROOT}/dist/servers/../../test/fixtures/servers/scripted-server.mjs`] })).toBe(
      false,
    );
    expect(trustOf({ args: [ours], env: { NODE_OPTIONS: `--import ${at('proj/evil.mjs')}` } })).toBe(false);
    expect(trustOf({ args: [ours], env: { LD_PRELOAD: at('proj/evil.so') } })).toBe(false);

    fs.mkdirSync(at('proj'), { recursive: true });
    fs.symlinkSync(ours, at('proj/calc.js'));
    expect(trustOf({ args: [ours] })).toBe(true);
    expect(trustOf({ command: process.execPath, args: [ours, '--flag'] })).toBe(true);
    // A link in the project to our own server runs our own code.
    expect(trustOf({ args: ['./calc.js'] })).toBe(true);

    // Said in the entry, it is the user's own word either way.
    expect(trustOf({ command: 'bash', args: ['-c', 'evil', ours], trust: true })).toBe(true);
  });

  it('maps every remote field and the type to a transport', () => {
    const config = load({
      mcpServers: {
        web: {
          url: 'https://example.com/mcp',
          headers: { 'X-Key': 'k' },
          ca: 'certs/ca.pem',
          timeout: 10,
          alwaysAllow: ['search'],
          alwaysInclude: [],
          trust: true,
          description: 'Web',
        },
        remote: { type: 'remote', url: 'https://example.com/mcp' },
        http: { type: 'http', url: 'http://127.0.0.1:9/mcp' },
        sse: { type: 'sse', url: 'http://127.0.0.1:9/sse' },
      },
    });
    expect(config.servers[0] as RemoteServerConfig).toEqual({
      kind: 'remote',
      name: 'web',
      transport: 'auto',
      url: 'https://example.com/mcp',
      headers: { 'X-Key': 'k' },
      ca: at('proj/certs/ca.pem'),
      timeoutMs: 10_000,
      alwaysAllow: ['search'],
      alwaysInclude: [],
      trust: true,
      sampling: 'ask',
      elicitation: 'ask',
      description: 'Web',
    });
    expect(config.servers.map((s) => (s.kind === 'remote' ? s.transport : s.kind))).toEqual([
      'auto',
      'auto',
      'http',
      'sse',
    ]);
  });

  it('puts disabled servers on the disabled list, keeping the others', () => {
    const config = load({
      mcpServers: { off: { command: 'node', disabled: true }, on: { command: 'node', disabled: false } },
    });
    expect(config.servers.map((s) => s.name)).toEqual(['on']);
    expect(config.disabled).toEqual([{ name: 'off', reason: 'disabled in config' }]);
  });

  it('disables a local server whose working directory does not exist', () => {
    const config = load({ mcpServers: { gone: { command: 'node', cwd: 'nowhere' }, calc: { command: 'node' } } });
    expect(config.servers.map((s) => s.name)).toEqual(['calc']);
    expect(config.disabled).toEqual([{ name: 'gone', reason: `working directory not found: ${at('proj/nowhere')}` }]);
  });

  it('refuses a remote URL that is not http(s), quoting it as written', () => {
    const message = configErrorOf(() =>
      load({ mcpServers: { web: { url: 'ftp://h/${TOKEN}' } } }, { TOKEN: 'secret' }),
    ).message;
    expect(message).toContain('mcpServers.web.url: expected an http(s) URL, got "ftp://h/${TOKEN}"');
    expect(message).not.toContain('secret');
  });
});

describe('config variable expansion', () => {
  it('expands in command, args, env, cwd, url, headers and ca; ${PWD} is always the start directory', () => {
    const config = load(
      {
        mcpServers: {
          local: {
            command: '${NODE_BIN:-node}',
            args: ['${PWD}', '--key=${KEY}', 'x${EMPTY:-y}'],
            env: { A: '${KEY}', B: '${UNSET:-fallback}' },
            cwd: '${PWD}',
          },
          web: { url: 'https://${HOST}/mcp', headers: { Authorization: 'Bearer ${KEY}' }, ca: '${PWD}/ca.pem' },
        },
      },
      { KEY: 'k1', HOST: 'h.example', EMPTY: '', PWD: '/elsewhere' },
    );
    expect(config.servers[0]).toMatchObject({
      command: 'node',
      args: [at('work'), '--key=k1', 'xy'],
      env: { A: 'k1', B: 'fallback' },
      cwd: at('work'),
    });
    expect(config.servers[1]).toMatchObject({
      url: 'https://h.example/mcp',
      headers: { Authorization: 'Bearer k1' },
      ca: at('work/ca.pem'),
    });
  });

  it('disables only the server whose variable is missing, naming it, and never sends an empty token', () => {
    const content = {
      mcpServers: {
        github: { url: 'https://api.example.com/mcp', headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' } },
        calc: { command: 'node' },
      },
    };
    for (const env of [{}, { GITHUB_TOKEN: '' }]) {
      const config = load(content, env);
      expect(config.servers.map((s) => s.name)).toEqual(['calc']);
      expect(config.disabled).toEqual([
        { name: 'github', reason: 'missing environment variable GITHUB_TOKEN (used in headers.Authorization)' },
      ]);
    }
    expect(load(content, { GITHUB_TOKEN: 'ghp_x' }).servers[0]).toMatchObject({
      headers: { Authorization: 'Bearer ghp_x' },
    });
  });

  it('names a missing variable nested in args and env', () => {
    const config = load({
      mcpServers: { s: { command: 'node', args: ['--db', '${DB_DIR}/x.db'], env: { KEY: '${API_KEY}' } } },
    });
    expect(config.disabled).toEqual([
      { name: 's', reason: 'missing environment variables DB_DIR (used in args[1]), API_KEY (used in env.KEY)' },
    ]);
  });

  it('does not expand or check a disabled server', () => {
    expect(load({ mcpServers: { off: { command: '${NOPE}', disabled: true } } }).disabled).toEqual([
      { name: 'off', reason: 'disabled in config' },
    ]);
  });

  it('refuses a malformed reference, naming the field', () => {
    const message = configErrorOf(() =>
      load({ mcp_servers: { web: { url: 'https://h', headers: { Authorization: 'Bearer ${GITHUB-TOKEN}' } } } }),
    ).message;
    expect(message).toContain('mcp_servers.web.headers.Authorization: malformed variable reference ${GITHUB-TOKEN}');
  });
});

describe('config paths', () => {
  it.each([
    ['./server.js', '/srv/server.js'],
    ['../lib/server.js', '/lib/server.js'],
    ['dist/main.js', '/srv/dist/main.js'],
    ['missing/main.js', 'missing/main.js'],
    ['@modelcontextprotocol/server-filesystem', '@modelcontextprotocol/server-filesystem'],
    ['node', 'node'],
    ['uvx', 'uvx'],
    ['main.js', 'main.js'],
    ['-y', '-y'],
    ['--root=./x', '--root=./x'],
    ['https://example.com/a', 'https://example.com/a'],
    ['/abs/path.js', '/abs/path.js'],
  ])('resolvePathArgument(%j) in /srv → %j', (value, expected) => {
    const existing = new Set(['/srv/dist/main.js']);
    expect(resolvePathArgument(value, '/srv', (file) => existing.has(file))).toBe(expected);
  });

  it('resolves cwd, command and arguments against the config file directory', () => {
    write('proj/dist/server.js', '');
    write('proj/sub/bin/run', '');
    const config = load({
      mcpServers: {
        s: { command: 'node', args: ['dist/server.js', 'missing/file.js', '-y'] },
        t: { command: './bin/run', cwd: 'sub' },
      },
    });
    expect(config.servers[0]).toMatchObject({
      cwd: at('proj'),
      args: [at('proj/dist/server.js'), 'missing/file.js', '-y'],
    });
    expect(config.servers[1]).toMatchObject({ cwd: at('proj/sub'), command: at('proj/sub/bin/run') });
  });

  it('resolves a relative log file against the start directory, not the config directory', () => {
    expect(load({ ...minimal, logging: { file: 'out/chat.log' } }).logging.file).toBe(at('work/out/chat.log'));
    expect(load(minimal, { MCP_CHAT_LOG_FILE: 'env.log' }).logging.file).toBe(at('work/env.log'));
  });

  it('loads the shipped mcp_config.json with the servers found from the package, built or not', () => {
    const config = loadConfig(options());
    expect(config.source).toBe(SHIPPED_CONFIG);
    for (const name of ['calculator', 'file', 'research']) {
      const server = config.servers.find((s) => s.name === name) as StdioServerConfig;
      expect(server.cwd).toBe(REPO_ROOT);
      expect(path.resolve(server.cwd, server.args[0] ?? '')).toBe(path.join(REPO_ROOT, `dist/servers/${name}/main.js`));
    }
    const file = config.servers.find((s) => s.name === 'file') as StdioServerConfig;
    expect(file.args[1]).toBe(at('work'));
    expect(config.servers.find((s) => s.name === 'research')).toMatchObject({
      env: { PAPERS_DIR: `${at('work')}/papers` },
    });
    expect(fs.existsSync(SHIPPED_CONFIG)).toBe(true);
  });
});

describe('config overrides', () => {
  const fileSettings = {
    ...minimal,
    ollama: { base_url: 'http://file:1', model: 'file-model' },
    logging: { level: 'warn', file: '/tmp/file.log' },
  };
  const envSettings = {
    OLLAMA_HOST: 'envhost:2',
    MCP_CHAT_MODEL: 'env-model',
    MCP_CHAT_LOG_LEVEL: 'debug',
    MCP_CHAT_LOG_FILE: '/tmp/env.log',
  };

  it('uses the file over the defaults', () => {
    const config = load(fileSettings);
    expect([config.ollama.baseUrl, config.ollama.model, config.logging.level, config.logging.file]).toEqual([
      'http://file:1',
      'file-model',
      'warn',
      '/tmp/file.log',
    ]);
  });

  it('uses the environment over the file', () => {
    const config = load(fileSettings, envSettings);
    expect([config.ollama.baseUrl, config.ollama.model, config.logging.level, config.logging.file]).toEqual([
      'http://envhost:2',
      'env-model',
      'debug',
      '/tmp/env.log',
    ]);
  });

  it('uses flags over the environment', () => {
    const config = load(fileSettings, envSettings, { host: 'flaghost', model: 'flag-model' });
    expect([config.ollama.baseUrl, config.ollama.model]).toEqual(['http://flaghost:11434', 'flag-model']);
  });

  it('treats empty environment variables and flags as unset', () => {
    const empty = { OLLAMA_HOST: '', MCP_CHAT_MODEL: '', MCP_CHAT_LOG_LEVEL: '', MCP_CHAT_LOG_FILE: '' };
    const config = load(fileSettings, empty, { host: '', model: '' });
    expect([config.ollama.baseUrl, config.ollama.model, config.logging.level, config.logging.file]).toEqual([
      'http://file:1',
      'file-model',
      'warn',
      '/tmp/file.log',
    ]);
  });

  it('refuses an unknown MCP_CHAT_LOG_LEVEL, naming the variable', () => {
    expect(configErrorOf(() => load(minimal, { MCP_CHAT_LOG_LEVEL: 'verbose' })).message).toBe(
      'MCP_CHAT_LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent, got "verbose"',
    );
  });

  it('names where an unusable Ollama URL came from', () => {
    expect(configErrorOf(() => load({ ...minimal, ollama: { base_url: 'ftp://x' } })).message).toContain(
      `(from ollama.base_url in ${at('proj/mcp_config.json')})`,
    );
    expect(configErrorOf(() => load(minimal, { OLLAMA_HOST: 'http://[bad' })).message).toBe(
      'invalid Ollama URL "http://[bad" (from OLLAMA_HOST)',
    );
    expect(configErrorOf(() => load(minimal, {}, { host: 'http://' })).message).toContain('(from --host)');
  });
});

describe('normalizeOllamaUrl', () => {
  it.each([
    ['localhost:11434', 'http://localhost:11434'],
    ['127.0.0.1', 'http://127.0.0.1:11434'],
    ['ollama.lan', 'http://ollama.lan:11434'],
    ['0.0.0.0', 'http://127.0.0.1:11434'],
    ['0.0.0.0:8080', 'http://127.0.0.1:8080'],
    ['http://0.0.0.0:11434', 'http://127.0.0.1:11434'],
    ['[::]:11434', 'http://[::1]:11434'],
    [':11500', 'http://127.0.0.1:11500'],
    ['  http://ollama.lan:8080/  ', 'http://ollama.lan:8080'],
    ['http://proxy.lan/ollama/', 'http://proxy.lan/ollama'],
    ['https://ollama.example.com', 'https://ollama.example.com'],
    ['http://ollama.lan', 'http://ollama.lan'],
  ])('%j → %j', (input, expected) => {
    expect(normalizeOllamaUrl(input, 'test')).toBe(expected);
  });

  it.each([['ftp://x'], ['http://[bad'], ['http://'], ['a b']])('refuses %j, naming its origin', (input) => {
    const error = configErrorOf(() => normalizeOllamaUrl(input, 'OLLAMA_HOST'));
    expect(error.message).toContain('(from OLLAMA_HOST)');
    expect(error.exitCode).toBe(2);
  });
});
