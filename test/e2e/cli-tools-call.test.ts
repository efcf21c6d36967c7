/**
 * `mcp-chat tools` and `mcp-chat call` as a user runs them: the built binary, the
 * shipped config, real server children.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../helpers/run-cli.js';
import { REPO_ROOT } from '../helpers/server-configs.js';

const EVERYTHING = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

let workDir: string;
let env: Record<string, string>;

beforeAll(() => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-cli-')));
  fs.writeFileSync(path.join(workDir, 'notes.txt'), 'remember the milk\n');
  env = cleanEnv({ HOME: workDir, MCP_CHAT_LOG_FILE: path.join(workDir, 'mcp-chat.log') });
});
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

describe('mcp-chat tools', () => {
  it('lists the tools of calculator, file and research from the shipped config, from any directory', async () => {
    const result = await runCli(['tools', '--json'], { cwd: workDir, env });
    // The shipped GitHub entry needs a token the test environment does not have: one notice, nothing else.
    expect(result.stderr).toBe(
      'warning: github: disabled (missing environment variable GITHUB_TOKEN (used in headers.Authorization))\n',
    );
    expect(result.code).toBe(0);
    const tools = JSON.parse(result.stdout) as {
      server: string;
      name: string;
      description: string;
      inputSchema: { type: string };
      serverInstructions?: string;
    }[];
    const names = tools.map((tool) => `${tool.server}.${tool.name}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'calculator.evaluate',
        'file.read_file',
        'file.write_file',
        'file.list_directory',
        'file.get_file_info',
        'file.search_files',
        'research.search_papers',
        'research.extract_info',
      ]),
    );
    for (const tool of tools) {
      const keys = ['description', 'inputSchema', 'name', 'server', 'serverInstructions'];
      expect(Object.keys(tool).sort()).toEqual(tool.serverInstructions === undefined ? keys.slice(0, 4) : keys);
      expect(tool.inputSchema.type).toBe('object');
    }
  });

  it("prints each server's instructions on its tools, as the model reads them", async () => {
    const result = await runCli(['tools', '--json'], { cwd: workDir, env });
    expect(result.code).toBe(0);
    const tools = JSON.parse(result.stdout) as { server: string; serverInstructions?: string }[];
    const calculator = tools.filter((tool) => tool.server === 'calculator');
    expect(calculator.length).toBeGreaterThan(0);
    for (const tool of calculator)
      expect(tool.serverInstructions).toBe(
        'Use evaluate for any arithmetic, math function or unit conversion instead of computing it yourself.',
      );
    // server-everything sends 1,574 characters: the model reads the first 1,000, and says so.
    const config = path.join(workDir, 'everything-instructions.json');
    fs.writeFileSync(
      config,
      JSON.stringify({ mcpServers: { everything: { command: 'node', args: [EVERYTHING, 'stdio'] } } }),
    );
    const everything = await runCli(['--config', config, 'tools', '--json'], { cwd: workDir, env });
    expect(everything.code).toBe(0);
    const [first, ...rest] = JSON.parse(everything.stdout) as { serverInstructions?: string }[];
    expect(first?.serverInstructions).toMatch(/^[\s\S]{1000}[\s\S]*truncated/);
    for (const tool of rest) expect(tool.serverInstructions).toBe(first?.serverInstructions);
  });

  it('prints a readable list grouped by server', async () => {
    const result = await runCli(['tools'], { cwd: workDir, env });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^calculator\n {2}evaluate\(expression\)/m);
  });

  it('wraps the list at 80 columns when stdout is no terminal, each description under its own column', async () => {
    const result = await runCli(['tools'], { cwd: workDir, env });
    const lines = result.stdout.trimEnd().split('\n');
    for (const line of lines) expect(Array.from(line).length, line).toBeLessThanOrEqual(80);
    const first = lines.findIndex((line) => line.startsWith('  evaluate(expression)'));
    const column = (lines[first] ?? '').indexOf('Evaluate');
    expect(column).toBeGreaterThan('  evaluate(expression)'.length);
    expect(lines[first + 1]).toMatch(new RegExp(`^ {${column}}\\S`));
  });

  it('warns about a server that fails to start and lists the others', async () => {
    const config = path.join(workDir, 'broken.json');
    fs.writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          calculator: { command: 'node', args: [path.resolve('dist/servers/calculator/main.js')] },
          ghost: { command: '/nonexistent/server' },
        },
      }),
    );
    const result = await runCli(['tools', '--json', '--config', config], { cwd: workDir, env });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('warning: ghost: failed to start (/nonexistent/server)');
    expect(JSON.parse(result.stdout)).toHaveLength(1);
  });

  it('exits 2 with the JSON path on an invalid config, global flags before the command', async () => {
    const config = path.join(workDir, 'invalid.json');
    fs.writeFileSync(config, JSON.stringify({ mcpServers: { calc: { command: 'node', args: [1] } } }));
    const result = await runCli(['--config', config, 'tools'], { cwd: workDir, env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('mcpServers.calc.args[0]');
    expect(result.stderr).not.toMatch(/at .*\.js:\d+/);
  });
});

describe('mcp-chat call', () => {
  it('calls calculator.evaluate directly', async () => {
    const result = await runCli(['call', 'calculator', 'evaluate', '{"expression":"1234*5678"}'], {
      cwd: workDir,
      env,
    });
    expect(result).toEqual({ code: 0, stdout: '7006652\n', stderr: '' });
  });

  it("checks a result against the tool's output schema (Ajv, which the build loads only when first needed)", async () => {
    const config = path.join(workDir, 'everything.json');
    fs.writeFileSync(
      config,
      JSON.stringify({ mcpServers: { everything: { command: 'node', args: [EVERYTHING, 'stdio'] } } }),
    );
    const result = await runCli(
      ['--config', config, 'call', 'everything', 'get-structured-content', '{"location":"Chicago"}'],
      { cwd: workDir, env },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/"temperature"/);
  });

  it('reads a file under the directory it was started in', async () => {
    const result = await runCli(['call', 'file', 'read_file', '{"path":"notes.txt"}'], { cwd: workDir, env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('remember the milk');
  });

  it('path traversal: refuses ../../etc/passwd with a clear message and exit 1', async () => {
    const result = await runCli(['call', 'file', 'read_file', '{"path":"../../etc/passwd"}'], { cwd: workDir, env });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/denied|outside/i);
    expect(result.stderr).not.toContain('root:');
  });

  it('exits 2 for arguments that are not a JSON object, and for an unknown server', async () => {
    const bad = await runCli(['call', 'calculator', 'evaluate', '{expression: 1'], { cwd: workDir, env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('not valid JSON');
    const unknown = await runCli(['call', 'nope', 'evaluate', '{}'], { cwd: workDir, env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown server "nope" (configured: calculator, file, research)');
  });

  it('exits 1 when the tool returns an error', async () => {
    const result = await runCli(['call', 'calculator', 'evaluate', '{"expression":"1 +"}', '--debug'], {
      cwd: workDir,
      env,
    });
    expect(result.code).toBe(1);
    // The calculator's text starts with `Error:` (its contract with the model): said once, not `error: Error:`.
    expect(result.stderr).toBe('error: Unexpected end of expression (char 4)\n');
  });

  it('exits 2 on an unknown command or option', async () => {
    const result = await runCli(['frobnicate'], { cwd: workDir, env });
    expect(result.code).toBe(2);
  });
});
