/**
 * Our servers speak plain MCP: the MCP Inspector's CLI, a client nobody here wrote,
 * lists and calls their tools over stdio, and those of `mcp-chat mcp-server`.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOllama, TEXT_MODEL, type FakeOllama } from '../fakes/fake-ollama.js';
import { CLI } from '../helpers/run-cli.js';
import { REPO_ROOT } from '../helpers/server-configs.js';

const run = promisify(execFile);
const INSPECTOR_BUILD = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/inspector-cli/build');

/** The inspector finds its own package.json relative to the working directory, so it runs from its build folder. */
async function inspector(server: string[], method: string[], env?: NodeJS.ProcessEnv): Promise<unknown> {
  const { stdout } = await run(process.execPath, [path.join(INSPECTOR_BUILD, 'index.js'), ...server, ...method], {
    cwd: INSPECTOR_BUILD,
    timeout: 15_000,
    ...(env ? { env } : {}),
  });
  return JSON.parse(stdout);
}

const calculator = ['node', path.join(REPO_ROOT, 'dist/servers/calculator/main.js')];

describe('MCP Inspector CLI against our servers', () => {
  it('calls calculator.evaluate: --tool-name evaluate --tool-arg expression=2+2', async () => {
    const result = await inspector(calculator, [
      '--method',
      'tools/call',
      '--tool-name',
      'evaluate',
      '--tool-arg',
      'expression=2+2',
    ]);
    expect(result).toMatchObject({ content: [{ type: 'text', text: '4' }] });
  });

  it('lists the tools of each of our servers', async () => {
    for (const [name, tool] of [
      ['calculator', 'evaluate'],
      ['file', 'read_file'],
      ['research', 'search_papers'],
    ] as const) {
      const result = (await inspector(
        ['node', path.join(REPO_ROOT, `dist/servers/${name}/main.js`)],
        ['--method', 'tools/list'],
      )) as {
        tools: { name: string }[];
      };
      expect(result.tools.map((t) => t.name)).toContain(tool);
    }
  });
});

describe('MCP Inspector CLI against mcp-chat mcp-server', () => {
  let home: string;
  let ollama: FakeOllama;
  /** The server's state and config stay in a home of the test's own (the inspector passes HOME on). */
  const env = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: home });
  const mcpServer = (): string[] => [process.execPath, CLI, '--host', ollama.url, 'mcp-server'];

  beforeAll(async () => {
    home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-inspector-')));
    ollama = await startFakeOllama({ models: TEXT_MODEL });
  });
  afterAll(async () => {
    await ollama.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('lists the chat tool with its output schema', async () => {
    const result = (await inspector(mcpServer(), ['--method', 'tools/list'], env())) as {
      tools: { name: string; outputSchema?: { required?: string[] } }[];
    };
    expect(result.tools.map((tool) => tool.name)).toEqual(['chat']);
    expect(result.tools[0]?.outputSchema?.required).toEqual(['answer', 'toolCalls', 'stats']);
  });

  it('calls chat: --tool-name chat --tool-arg prompt=…', async () => {
    ollama.script(
      JSON.stringify({ action: 'use_tool', server: 'calculator', tool: 'evaluate', arguments: { expression: '2+2' } }),
      'It is 4.',
    );
    const result = await inspector(
      mcpServer(),
      ['--method', 'tools/call', '--tool-name', 'chat', '--tool-arg', 'prompt=What is 2+2?'],
      env(),
    );
    expect(result).toMatchObject({
      content: [{ type: 'text', text: 'It is 4.' }],
      structuredContent: { answer: 'It is 4.', toolCalls: [{ tool: 'evaluate', result: '4' }] },
    });
  });
});
