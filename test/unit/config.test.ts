import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyDotEnv, findConfigFile, loadConfig } from '../../src/config/load.js';
import { jsonErrorOffset } from '../../src/config/json-text.js';
import type { StdioServerConfig } from '../../src/config/types.js';
import { ConfigError } from '../../src/shared/errors.js';
import { configErrorOf, SHIPPED_CONFIG, useConfigDir } from '../helpers/config-dir.js';
import { REPO_ROOT } from '../helpers/server-configs.js';

const { root, write, options } = useConfigDir();
const minimal = { mcpServers: { calc: { command: 'node', args: ['calc.js'] } } };
const CLAUDE_DESKTOP = path.join(REPO_ROOT, 'test/fixtures/config/claude_desktop_config.json');

function messageFor(content: unknown): string {
  const file = write('c.json', content);
  const error = configErrorOf(() => loadConfig(options({ configPath: file })));
  expect(error.exitCode).toBe(2);
  expect(error.message).toContain(file);
  return error.message;
}

describe('config discovery', () => {
  function writeAllLevels(): Record<'flag' | 'fromEnv' | 'local' | 'xdg', string> {
    return {
      flag: write('flag.json', minimal),
      fromEnv: write('env.json', minimal),
      local: write('work/mcp_config.json', minimal),
      xdg: write('xdg/mcp-chat/mcp_config.json', minimal),
    };
  }

  it('uses --config before everything else', () => {
    const files = writeAllLevels();
    expect(loadConfig(options({ configPath: files.flag, env: { MCP_CHAT_CONFIG: files.fromEnv } })).source).toBe(
      files.flag,
    );
  });

  it('uses MCP_CHAT_CONFIG when there is no --config', () => {
    const files = writeAllLevels();
    expect(loadConfig(options({ env: { MCP_CHAT_CONFIG: files.fromEnv } })).source).toBe(files.fromEnv);
  });

  it('uses ./mcp_config.json next, and treats an empty MCP_CHAT_CONFIG as unset', () => {
    const files = writeAllLevels();
    expect(loadConfig(options({ env: { MCP_CHAT_CONFIG: '' } })).source).toBe(files.local);
  });

  it('uses $XDG_CONFIG_HOME/mcp-chat/mcp_config.json next', () => {
    const files = writeAllLevels();
    fs.rmSync(files.local);
    expect(loadConfig(options()).source).toBe(files.xdg);
  });

  it('takes the XDG directory from XDG_CONFIG_HOME, else HOME/.config, when not given', () => {
    const xdg = write('custom-xdg/mcp-chat/mcp_config.json', minimal);
    const home = write('home/.config/mcp-chat/mcp_config.json', minimal);
    const base = { ...options(), xdgConfigHome: undefined };
    expect(
      loadConfig({
        ...base,
        env: { XDG_CONFIG_HOME: path.join(root(), 'custom-xdg'), HOME: path.join(root(), 'home') },
      }).source,
    ).toBe(xdg);
    expect(
      loadConfig({ ...base, env: { XDG_CONFIG_HOME: 'relative/ignored', HOME: path.join(root(), 'home') } }).source,
    ).toBe(home);
  });

  it('falls back to the shipped file', () => {
    expect(loadConfig(options()).source).toBe(SHIPPED_CONFIG);
  });

  it('resolves a relative --config or MCP_CHAT_CONFIG against the start directory', () => {
    const file = write('work/conf/mine.json', minimal);
    expect(findConfigFile(options({ configPath: 'conf/mine.json' }))).toBe(file);
    expect(findConfigFile(options({ env: { MCP_CHAT_CONFIG: './conf/mine.json' } }))).toBe(file);
  });

  it('names an explicit file that does not exist, and where it came from', () => {
    write('work/mcp_config.json', minimal);
    expect(configErrorOf(() => loadConfig(options({ configPath: 'nope.json' }))).message).toBe(
      `config file not found: ${path.join(root(), 'work/nope.json')} (from --config)`,
    );
    expect(configErrorOf(() => loadConfig(options({ env: { MCP_CHAT_CONFIG: '/x/y.json' } }))).message).toContain(
      '/x/y.json (from MCP_CHAT_CONFIG)',
    );
  });

  it('skips a directory named mcp_config.json and reports when nothing is found at all', () => {
    fs.mkdirSync(path.join(root(), 'work/mcp_config.json'));
    const missingShipped = path.join(root(), 'package/mcp_config.json');
    const error = configErrorOf(() => loadConfig(options({ packageConfigPath: missingShipped })));
    expect(error.message).toMatch(
      /^no configuration file found; looked for .*work\/mcp_config\.json, .*xdg\/mcp-chat\/mcp_config\.json, .*package\/mcp_config\.json$/,
    );
  });

  it('reports an unreadable file with its path', () => {
    const dir = path.join(root(), 'a-directory.json');
    fs.mkdirSync(dir);
    expect(configErrorOf(() => loadConfig(options({ configPath: dir }))).message).toMatch(
      /^cannot read config .*a-directory\.json: EISDIR/,
    );
  });
});

describe('config JSON syntax errors', () => {
  it.each([
    ['a trailing comma', '{\n  "mcpServers": {},\n}', 3, 1],
    ['a comment', '// mine\n{ "mcpServers": {} }', 1, 1],
    ['single quotes', "{\n  'mcpServers': {}\n}", 2, 3],
    ['a bare word', '{ "mcpServers": { "a": { "command": node } } }', 1, 37],
    ['a missing colon', '{ "mcpServers" {} }', 1, 16],
    ['an empty file', '', 1, 1],
    ['an unclosed object', '{ "mcpServers": {}\n', 2, 1],
  ])('names the file, line and column for %s', (_label, text, line, column) => {
    const file = write('bad.json', text);
    const error = configErrorOf(() => loadConfig(options({ configPath: file })));
    expect(error.message).toMatch(
      new RegExp(`^config ${file} is not valid JSON at line ${line}, column ${column}: \\S`),
    );
    // V8's copy of the source text is dropped: the position says it better.
    expect(error.message.slice(error.message.indexOf(', column'))).not.toContain('not valid JSON');
    expect(error.hint).toContain('no comments');
  });

  it('accepts a byte-order mark', () => {
    const file = write('bom.json', `\uFEFF${JSON.stringify(minimal)}`);
    expect(loadConfig(options({ configPath: file })).servers.map((s) => s.name)).toEqual(['calc']);
  });

  it('property: the error scanner agrees with JSON.parse on what is valid', () => {
    const jsonish = fc.string({
      unit: fc.constantFrom(...'{}[]":,0123456789-+.eE \n\\utrfalsn'.split('')),
      maxLength: 24,
    });
    const mutated = fc
      .tuple(fc.jsonValue(), fc.nat(), fc.constantFrom('', ',', '}', '"', '\\', "'", '/'))
      .map(([value, at, insert]) => {
        const text = JSON.stringify(value);
        const cut = at % (text.length + 1);
        return text.slice(0, cut) + insert + text.slice(cut);
      });
    fc.assert(
      fc.property(fc.oneof(jsonish, mutated), (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        expect(jsonErrorOffset(text) === -1).toBe(valid);
      }),
      { numRuns: 3_000 },
    );
  });
});

describe('config validation', () => {
  it('names the JSON path of every bad field, what was expected and what was found', () => {
    const message = messageFor({
      ollama: { num_ctx: 'big', tool_mode: 'magic', timeout: -1 },
      mcpServers: {
        calculator: { command: 'node', args: ['a', 3] },
        web: { type: 'http' },
        slow: { command: 'x', timeout: '60' },
      },
      history: { max_messages: 2.5 },
    });
    expect(message.split('\n').slice(1)).toEqual([
      '  ollama.timeout: expected a number > 0, got -1',
      '  ollama.num_ctx: expected number, got string',
      '  ollama.tool_mode: expected one of "auto", "native", "json", "xml", got "magic"',
      '  mcpServers.calculator.args[1]: expected string, got number',
      '  mcpServers.web.url: a "http" server needs "url"',
      '  mcpServers.slow.timeout: expected number, got string',
      '  history.max_messages: expected integer, got number 2.5',
    ]);
  });

  it('reports unknown keys in our own sections, but not at the top level or in a server entry', () => {
    const message = messageFor({
      ollama: { modle: 'x' },
      logging: { level: 'loud' },
      anything: 1,
      mcpServers: { a: { command: 'x', extra: true } },
    });
    expect(message).toContain('ollama.modle: unknown key');
    expect(message).toContain(
      'logging.level: expected one of "fatal", "error", "warn", "info", "debug", "trace", "silent", got "loud"',
    );
    expect(message).not.toContain('anything');
    expect(message).not.toContain('extra');
  });

  it('a server request policy is ask, allow or deny, and says so', () => {
    const message = messageFor({ mcpServers: { a: { command: 'x', sampling: 'sometimes', elicitation: true } } });
    expect(message).toContain('mcpServers.a.sampling: expected one of "ask", "allow", "deny", got "sometimes"');
    expect(message).toContain('mcpServers.a.elicitation: expected one of "ask", "allow", "deny", got true');
  });

  it('a circuit breaker takes at least one failure and a cool-down in seconds, and nothing else', () => {
    const message = messageFor({
      mcpServers: { a: { command: 'x', circuitBreaker: { failures: 0, cooldown: -1, after: 2 } } },
    });
    expect(message).toContain('mcpServers.a.circuitBreaker.failures');
    expect(message).toContain('mcpServers.a.circuitBreaker.cooldown');
    expect(message).toContain('mcpServers.a.circuitBreaker.after: unknown key');
  });

  it('requires a servers map, and says it may be empty', () => {
    expect(messageFor({ ollama: {} })).toContain('mcpServers: missing: add "mcpServers": {} to chat without tools');
    expect(loadConfig(options({ configPath: write('e.json', { mcpServers: {} }) })).servers).toEqual([]);
  });

  it('caps timeouts where Node timers would overflow', () => {
    expect(messageFor({ mcpServers: { a: { command: 'x', timeout: 1e7 } } })).toContain(
      'mcpServers.a.timeout: expected a number <= 2147483, got 10000000',
    );
  });

  it('rejects a file that is not an object', () => {
    expect(messageFor([1, 2])).toContain('(top level): expected object, got array');
    expect(messageFor('null')).toContain('(top level): expected object, got null');
  });

  it('accepts mcp_servers as an alias', () => {
    const file = write('a.json', { mcp_servers: minimal.mcpServers });
    expect(loadConfig(options({ configPath: file })).servers.map((s) => s.name)).toEqual(['calc']);
  });

  it('refuses both mcpServers and mcp_servers, also alongside other errors', () => {
    expect(messageFor({ mcpServers: {}, mcp_servers: {} })).toContain(
      'mcp_servers: use either "mcpServers" or "mcp_servers", not both',
    );
    const message = messageFor({ mcpServers: {}, mcp_servers: {}, ollama: { model: 3 } });
    expect(message).toContain('not both');
    expect(message).toContain('ollama.model: expected string, got number');
  });

  it.each(['calculator', 'brave-search', 'my_server', 'GitHub2', '9lives'])('accepts the server name %s', (name) => {
    const file = write('n.json', { mcpServers: { [name]: { command: 'x' } } });
    expect(loadConfig(options({ configPath: file })).servers[0]?.name).toBe(name);
  });

  it.each([
    ['my server', 'mcpServers["my server"]'],
    ['a.b', 'mcpServers["a.b"]'],
    ['a/b', 'mcpServers["a/b"]'],
    ['', 'mcpServers[""]'],
    ['a__b', 'mcpServers.a__b'],
    ['-x', 'mcpServers["-x"]'],
  ])('rejects the server name %j, quoting it in the path', (name, at) => {
    const message = messageFor(`{ "mcpServers": { ${JSON.stringify(name)}: { "command": "x" } } }`);
    expect(message).toContain(`${at}: invalid name: server names use letters, digits, "-" and single "_"`);
  });

  it('drops a "__proto__" key without touching any prototype', () => {
    const file = write(
      'p.json',
      '{ "__proto__": { "x": 1 }, "mcpServers": { "__proto__": { "command": "evil" }, "ok": { "command": "node" } } }',
    );
    expect(loadConfig(options({ configPath: file })).servers.map((s) => s.name)).toEqual(['ok']);
    expect(({} as Record<string, unknown>).command).toBeUndefined();
  });

  it('refuses two server names that differ only in case', () => {
    expect(messageFor({ mcpServers: { calc: { command: 'x' }, Calc: { command: 'y' } } })).toContain(
      'mcpServers.Calc: same name as "calc" (names ignore case)',
    );
  });

  it('needs command or url, refuses both without a type, and lets type decide', () => {
    const message = messageFor({
      mcpServers: {
        empty: {},
        both: { command: 'x', url: 'https://h/mcp' },
        local: { type: 'local', url: 'https://h/mcp' },
        sse: { type: 'sse', command: 'x' },
        stdioCa: { command: 'x', ca: 'ca.pem' },
      },
    });
    expect(message).toContain('mcpServers.empty: needs "command" (a local server) or "url" (a remote one)');
    expect(message).toContain('mcpServers.both: has both "command" and "url": set "type" to "stdio" or "remote"');
    expect(message).toContain('mcpServers.local.command: a "local" server needs "command"');
    expect(message).toContain('mcpServers.sse.url: a "sse" server needs "url"');
    expect(message).toContain('mcpServers.stdioCa.ca: "ca" applies only to remote servers');
    const typed = loadConfig(
      options({
        configPath: write('t.json', { mcpServers: { both: { type: 'stdio', command: 'x', url: 'https://h/mcp' } } }),
      }),
    );
    expect(typed.servers[0]?.kind).toBe('stdio');
  });

  it('lets a disabled entry be incomplete, but still checks its types', () => {
    const file = write('d.json', { mcpServers: { parked: { disabled: true } } });
    expect(loadConfig(options({ configPath: file })).disabled).toEqual([
      { name: 'parked', reason: 'disabled in config' },
    ]);
    expect(messageFor({ mcpServers: { parked: { disabled: 'yes' } } })).toContain(
      'mcpServers.parked.disabled: expected boolean, got string',
    );
  });

  it('shows the first twelve problems and counts the rest', () => {
    const servers = Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`s${i}`, { command: i }]));
    const lines = messageFor({ mcpServers: servers }).split('\n');
    expect(lines).toHaveLength(1 + 12 + 1);
    expect(lines.at(-1)).toBe('  … and 3 more');
  });

  it('loads a real Claude Desktop file unchanged', () => {
    const config = loadConfig(options({ configPath: CLAUDE_DESKTOP }));
    expect(config.disabled).toEqual([]);
    expect(config.servers.map((s) => s.name)).toEqual([
      'filesystem',
      'brave-search',
      'github',
      'sqlite',
      'weather',
      'fetch',
    ]);
    const [filesystem, brave, github] = config.servers as StdioServerConfig[];
    expect(filesystem).toEqual({
      kind: 'stdio',
      name: 'filesystem',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/username/Desktop', '/Users/username/Downloads'],
      env: {},
      cwd: path.dirname(CLAUDE_DESKTOP),
      timeoutMs: 60_000,
      alwaysAllow: [],
      alwaysInclude: [],
      trust: false,
      sampling: 'ask',
      elicitation: 'ask',
    });
    expect(brave).toMatchObject({ command: 'npx', env: { BRAVE_API_KEY: 'BSA-example-key' } });
    expect(github?.args).toEqual([
      'run',
      '-i',
      '--rm',
      '-e',
      'GITHUB_PERSONAL_ACCESS_TOKEN',
      'ghcr.io/github/github-mcp-server',
    ]);
    expect(config.servers[4]).toMatchObject({
      command: 'uv',
      args: ['--directory', '/Users/username/projects/weather', 'run', 'weather.py'],
    });
  });
});

describe('config fuzz', () => {
  function loadsOrConfigError(text: string): void {
    const file = path.join(root(), 'fuzz.json');
    fs.writeFileSync(file, text);
    try {
      loadConfig(options({ configPath: file }));
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
    }
  }

  it('property: any JSON value as a config file gives a config or a ConfigError, never a crash', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => loadsOrConfigError(JSON.stringify(value))),
      { numRuns: 500 },
    );
  });

  it('property: config-shaped random files give a config or a ConfigError', () => {
    const field = fc.oneof(
      fc.jsonValue({ maxDepth: 1 }),
      fc.constantFrom('${X}', '${X:-d}', '${', './a', 'https://h/x', 'stdio', 'sse', 'remote'),
    );
    const entry = fc.dictionary(
      fc.constantFrom(
        'type',
        'command',
        'args',
        'env',
        'url',
        'headers',
        'cwd',
        'ca',
        'disabled',
        'timeout',
        'alwaysAllow',
      ),
      field,
    );
    const file = fc.record(
      {
        mcpServers: fc.dictionary(fc.string({ maxLength: 6 }), entry, { maxKeys: 3 }),
        ollama: fc.dictionary(fc.constantFrom('base_url', 'model', 'timeout', 'num_ctx', 'tool_mode'), field),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(file, (value) => loadsOrConfigError(JSON.stringify(value))),
      { numRuns: 500 },
    );
  });

  it('property: any text as a config file gives a config or a ConfigError', () => {
    fc.assert(fc.property(fc.string({ maxLength: 40 }), loadsOrConfigError), { numRuns: 300 });
  });
});

describe('applyDotEnv', () => {
  it('sets the variables of a .env without overriding those already set', () => {
    const env: Record<string, string | undefined> = { B: 'already-set' };
    expect(applyDotEnv(Buffer.from('MCP_CHAT_MODEL=from-file\nB=from-file\nA=1\n'), env)).toEqual([]);
    expect(env).toEqual({ MCP_CHAT_MODEL: 'from-file', B: 'already-set', A: '1' });
  });

  it('config swap by .env: never sets a variable that picks the config, moves state or changes what runs', () => {
    const names = [
      'MCP_CHAT_CONFIG',
      'MCP_CHAT_LOG_FILE',
      'MCP_CHAT_ANYTHING_NEW',
      'XDG_STATE_HOME',
      'XDG_CONFIG_HOME',
    ];
    names.push('XDG_CACHE_HOME', 'HOME', 'PATH', 'NODE_OPTIONS', 'LD_PRELOAD', 'DYLD_INSERT_LIBRARIES', 'BROWSER');
    const env: Record<string, string | undefined> = {};
    const refused = applyDotEnv(Buffer.from(names.map((name) => `${name}=/tmp/x`).join('\n')), env);
    expect(env).toEqual({});
    expect(refused.map((variable) => variable.name)).toEqual(names);
    for (const variable of refused) expect(variable.instead).toMatch(/set it in your shell/);
  });

  it('keeps what a project .env is for: tokens, URLs and the model', () => {
    const env: Record<string, string | undefined> = {};
    const text = 'GITHUB_TOKEN=t\nOLLAMA_HOST=http://127.0.0.1:1\nMCP_CHAT_MODEL=m\nMCP_CHAT_LOG_LEVEL=debug\n';
    expect(applyDotEnv(Buffer.from(text), env)).toEqual([]);
    expect(Object.keys(env)).toEqual(['GITHUB_TOKEN', 'OLLAMA_HOST', 'MCP_CHAT_MODEL', 'MCP_CHAT_LOG_LEVEL']);
  });
});
