/**
 * `mcp-chat ask` end to end: the built binary as a child process, the fake Ollama over
 * HTTP, and our real servers over stdio, with the shipped config.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOllama, type FakeOllama } from '../fakes/fake-ollama.js';
import { cleanEnv, runCli } from '../helpers/run-cli.js';

const textCall = (server: string, tool: string, args: Record<string, unknown>): string =>
  JSON.stringify({ action: 'use_tool', server, tool, arguments: args });

let workDir: string;
let ollama: FakeOllama;

beforeAll(() => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-ask-')));
});
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));
afterEach(async () => {
  // The Ollama-down test has closed its fake already.
  await ollama.close().catch(() => undefined);
});

/** Text-JSON mode: the model has no native tool support. */
async function textModeOllama(): Promise<void> {
  ollama = await startFakeOllama({ models: [{ name: 'llama3.2', capabilities: ['completion'] }] });
}

function ask(args: string[], options: { stdin?: string; env?: Record<string, string> } = {}) {
  const env = cleanEnv({
    HOME: workDir,
    OLLAMA_HOST: ollama.url,
    MCP_CHAT_LOG_FILE: path.join(workDir, 'log.jsonl'),
    ...options.env,
  });
  return runCli(['ask', ...args], { cwd: workDir, env, stdin: options.stdin });
}

describe('mcp-chat ask', () => {
  beforeEach(textModeOllama);

  it('answers a calculator question with --json: the call, its result, and the result sent back to the model', async () => {
    ollama.script(textCall('calculator', 'evaluate', { expression: '1234*5678' }), 'The product is 7006652.');
    const result = await ask(['--json', 'What is 1234*5678?']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(Object.keys(output).sort()).toEqual([
      'answer',
      'denied',
      'model',
      'serverRequests',
      'stats',
      'steps',
      'toolCalls',
      'toolsOffered',
    ]);
    expect(output).toMatchObject({ answer: 'The product is 7006652.', model: 'llama3.2', steps: 2 });
    expect(output.toolCalls).toEqual([
      {
        id: 'call_1',
        server: 'calculator',
        tool: 'evaluate',
        arguments: { expression: '1234*5678' },
        isError: false,
        result: '7006652',
        durationMs: expect.any(Number),
      },
    ]);
    const second = ollama.chatRequests[1];
    expect(second?.messages.at(-1)?.content).toContain('7006652');
    expect(second?.tools).toBeUndefined();
  });

  it('streams only the answer to stdout', async () => {
    ollama.script(textCall('calculator', 'evaluate', { expression: '2+2' }), 'Two plus two is **4**.');
    const result = await ask(['What', 'is', '2+2?']);
    expect(result).toEqual({ code: 0, stdout: 'Two plus two is **4**.\n', stderr: '' });
    expect(ollama.chatRequests[0]?.messages.at(-1)).toMatchObject({ role: 'user', content: 'What is 2+2?' });
  });

  it('reads the prompt from stdin when none is given, or with -', async () => {
    ollama.script('Hello from stdin.', 'Hello again.');
    const piped = await ask([], { stdin: 'Say hello\n' });
    expect(piped).toMatchObject({ code: 0, stdout: 'Hello from stdin.\n' });
    const dash = await ask(['-'], { stdin: 'Say hello again' });
    expect(dash.stdout).toBe('Hello again.\n');
    expect(ollama.chatRequests.map((r) => r.messages.at(-1)?.content)).toEqual(['Say hello', 'Say hello again']);
  });

  it('answers a file question from the directory it was started in', async () => {
    fs.writeFileSync(path.join(workDir, 'todo.md'), '- buy oat milk\n');
    ollama.script(textCall('file', 'read_file', { path: 'todo.md' }), 'Your list says: buy oat milk.');
    const result = await ask(['--json', 'What is on my todo list?']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).toolCalls[0]).toMatchObject({ server: 'file', tool: 'read_file', isError: false });
    expect(ollama.chatRequests[1]?.messages.at(-1)?.content).toContain('buy oat milk');
  });

  it('denies a tool that needs approval unless --yes, and tells the model', async () => {
    const write = textCall('file', 'write_file', { path: 'out.txt', content: 'hello' });
    ollama.script(write, 'I was not allowed to write the file.');
    const denied = await ask(['--json', 'Write hello to out.txt']);
    expect(denied.code).toBe(0);
    expect(JSON.parse(denied.stdout).toolCalls[0]).toMatchObject({ tool: 'write_file', isError: true });
    expect(ollama.chatRequests[1]?.messages.at(-1)?.content).toContain('did not approve');
    expect(fs.existsSync(path.join(workDir, 'out.txt'))).toBe(false);
    ollama.script(write, 'Done.');
    const approved = await ask(['--yes', 'Write hello to out.txt']);
    expect(approved.code).toBe(0);
    expect(fs.readFileSync(path.join(workDir, 'out.txt'), 'utf8')).toBe('hello');
  });

  it('exits 3 when the step limit is reached', async () => {
    const loop = textCall('calculator', 'evaluate', { expression: '1+1' });
    ollama.script(loop, loop);
    const result = await ask(['--max-steps', '2', '--json', 'loop forever']);
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({ answer: '', steps: 2 });
    expect(result.stderr).toContain('--max-steps');
  });

  it('exits 2 for bad usage: an empty prompt or a bad --max-steps', async () => {
    expect((await ask([], { stdin: '   ' })).code).toBe(2);
    const bad = await ask(['--max-steps', 'zero', 'hi']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--max-steps');
  });

  it('exits 1 with the pull command when the model is missing', async () => {
    const result = await ask(['--model', 'qwen3:8b', 'hi']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('ollama pull qwen3:8b');
  });
});

describe('mcp-chat ask with native tool calls', () => {
  beforeEach(async () => {
    ollama = await startFakeOllama();
  });

  it('offers tools natively and feeds the result back in a tool message', async () => {
    ollama.script(
      { toolCalls: [{ name: 'calculator__evaluate', arguments: { expression: '12*12' } }] },
      '12 × 12 = 144.',
    );
    const result = await ask(['--json', 'What is 12*12?']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      answer: '12 × 12 = 144.',
      toolCalls: [{ server: 'calculator', tool: 'evaluate', result: '144' }],
    });
    const tools = (ollama.chatRequests[0]?.tools ?? []) as { function: { name: string } }[];
    expect(tools.map((t) => t.function.name)).toContain('calculator__evaluate');
    expect(ollama.chatRequests[1]?.messages.at(-1)).toMatchObject({ role: 'tool', content: '144' });
  });
});

describe('mcp-chat ask when Ollama is down', () => {
  it('exits 1 naming the URL and how to start Ollama', async () => {
    ollama = await startFakeOllama();
    const url = ollama.url;
    await ollama.close();
    const env = cleanEnv({ HOME: workDir, OLLAMA_HOST: url, MCP_CHAT_LOG_FILE: path.join(workDir, 'log.jsonl') });
    const result = await runCli(['ask', 'hello'], { cwd: workDir, env });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(url);
    expect(result.stderr).toContain('ollama serve');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
