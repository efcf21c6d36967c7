/**
 * `mcp-chat ask` for scripts, end to end (the built binary, the fake Ollama, the shipped
 * servers): what a turn cost (`--json`'s `stats`), `--output-format stream-json`, answers held
 * to `--output-schema`, and `--think` for reasoning models.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOllama, type FakeOllama } from '../fakes/fake-ollama.js';
import { cleanEnv, runCli } from '../helpers/run-cli.js';

const THINKER = { name: 'qwen3', capabilities: ['completion', 'tools', 'thinking'] };
const PLAIN = { name: 'llama3.2', capabilities: ['completion', 'tools'] };
const evaluate = (expression: string) => ({ name: 'calculator__evaluate', arguments: { expression } });

let workDir: string;
let ollama: FakeOllama;

beforeAll(() => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-ask-formats-')));
});
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));
beforeEach(async () => {
  ollama = await startFakeOllama({ models: [THINKER, PLAIN] });
});
afterEach(async () => {
  await ollama.close();
});

function ask(args: string[]) {
  const env = cleanEnv({ HOME: workDir, OLLAMA_HOST: ollama.url, MCP_CHAT_LOG_FILE: path.join(workDir, 'log.jsonl') });
  return runCli(['ask', ...args], { cwd: workDir, env, timeoutMs: 30_000 });
}

function writeFile(name: string, content: string): string {
  const file = path.join(workDir, name);
  fs.writeFileSync(file, content);
  return file;
}

/** Every line of stdout, each parsed on its own. */
function jsonLines(stdout: string): Record<string, unknown>[] {
  expect(stdout.endsWith('\n')).toBe(true);
  return stdout
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('ask --json stats', () => {
  it("reports the turn's cost from Ollama's counts: tokens, tokens/s, tool calls by server, context", async () => {
    ollama.script(
      { toolCalls: [evaluate('6*7')], promptEvalCount: 100, evalCount: 10 },
      { text: 'It is 42.', promptEvalCount: 120, evalCount: 5 },
    );
    const result = await ask(['--json', 'What is 6*7?']);
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout) as { stats: Record<string, unknown> };
    expect(output.stats).toEqual({
      turns: 1,
      requests: 2,
      inputTokens: 220,
      outputTokens: 15,
      // The fake spends 20 ms per generated token (eval_duration).
      tokensPerSecond: 50,
      modelMs: expect.any(Number),
      // 1.334875 ms of load_duration per reply.
      loadMs: 3,
      toolMs: expect.any(Number),
      toolCalls: 1,
      toolCallsByServer: { calculator: 1 },
      context: { used: 125, size: 8192 },
    });
  });
});

describe('ask --output-format stream-json', () => {
  it('prints one JSON object per line, in the order of the turn, ending with the result', async () => {
    ollama.script(
      { thinking: 'I should use the calculator.', toolCalls: [evaluate('6*7')], promptEvalCount: 90, evalCount: 8 },
      { thinking: 'It returned 42.', text: 'Six times seven is 42.', promptEvalCount: 110, evalCount: 6 },
    );
    const result = await ask(['--model', 'qwen3', '--output-format', 'stream-json', 'What is 6*7?']);
    expect(result.code).toBe(0);
    const lines = jsonLines(result.stdout);
    const kinds = lines.map((line) => line.type).filter((type, index, all) => type !== all[index - 1]);
    expect(kinds).toEqual(['init', 'message', 'thinking', 'tool_use', 'tool_result', 'thinking', 'message', 'result']);
    expect(lines.every((line) => typeof line.timestamp === 'string')).toBe(true);
    const [init, user] = lines;
    expect(init).toMatchObject({ type: 'init', session_id: expect.any(String), model: 'qwen3' });
    expect(init?.tools).toContain('calculator.evaluate');
    expect(init?.servers).toContainEqual({ name: 'calculator', state: 'ready', tools: expect.any(Number) });
    expect(user).toMatchObject({ type: 'message', role: 'user', content: 'What is 6*7?' });
    const use = lines.find((line) => line.type === 'tool_use');
    expect(use).toMatchObject({ tool_name: 'calculator.evaluate', parameters: { expression: '6*7' } });
    expect(lines.find((line) => line.type === 'tool_result')).toMatchObject({
      tool_id: use?.tool_id,
      status: 'success',
      output: '42',
    });
    const thinking = lines.filter((line) => line.type === 'thinking').map((line) => line.content);
    expect(thinking.join('')).toBe('I should use the calculator.It returned 42.');
    const answer = lines.filter((line) => line.type === 'message' && line.role === 'assistant');
    expect(answer.every((line) => line.delta === true)).toBe(true);
    expect(answer.map((line) => line.content).join('')).toBe('Six times seven is 42.');
    expect(lines.at(-1)).toMatchObject({
      type: 'result',
      status: 'success',
      answer: 'Six times seven is 42.',
      steps: 2,
      toolCalls: [{ server: 'calculator', tool: 'evaluate', result: '42' }],
      stats: { requests: 2, inputTokens: 200, outputTokens: 14, toolCallsByServer: { calculator: 1 } },
    });
  });

  it('sends the reasoning of a tool-call step back with its call, in `thinking`, never as what the model said', async () => {
    ollama.script({ thinking: 'PLAN: call the calculator.', toolCalls: [evaluate('1+1')] }, { text: 'Two.' });
    const result = await ask(['--model', 'qwen3', '--output-format', 'stream-json', 'What is 1+1?']);
    expect(result.code).toBe(0);
    const calling = ollama.chatRequests[1]?.messages.find((message) => message.role === 'assistant');
    expect(calling).toMatchObject({ thinking: 'PLAN: call the calculator.', content: '' });
    expect(calling?.tool_calls).toHaveLength(1);
  });

  it('ends with an error and a failed result when the turn fails, every line still JSON', async () => {
    const loop = { toolCalls: [evaluate('1+1')] };
    ollama.script(loop, loop);
    const result = await ask(['--max-steps', '2', '--output-format', 'stream-json', 'loop']);
    expect(result.code).toBe(3);
    const lines = jsonLines(result.stdout);
    expect(lines.at(-2)).toMatchObject({ type: 'error', severity: 'error' });
    expect(lines.at(-1)).toMatchObject({ type: 'result', status: 'error', error: { type: 'step-limit' } });
  });

  it('refuses --json with another --output-format (exit 2)', async () => {
    const result = await ask(['--json', '--output-format', 'stream-json', 'hi']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--output-format stream-json');
    expect(ollama.chatRequests).toHaveLength(0);
  });
});

describe('ask --output-schema', () => {
  const schema = {
    type: 'object',
    properties: { product: { type: 'integer' } },
    required: ['product'],
    additionalProperties: false,
  };

  it("sends the schema as `format` on the answer's request only, after the tool calls, and prints the answer", async () => {
    const file = writeFile('product.json', JSON.stringify(schema));
    ollama.script({ toolCalls: [evaluate('6*7')] }, 'The product is 42.', '{"product": 42}\n\n  ');
    const result = await ask(['--output-schema', file, 'What is 6*7?']);
    expect(result).toEqual({ code: 0, stdout: '{"product": 42}\n', stderr: '' });
    const requests = ollama.chatRequests;
    expect(requests.map((request) => request.format)).toEqual([undefined, undefined, schema]);
    expect(requests[2]?.tools).toBeUndefined();
    expect(requests[2]?.messages.at(-2)).toEqual({ role: 'assistant', content: 'The product is 42.' });
    expect(requests[2]?.messages[0]?.content).toContain(JSON.stringify(schema));
  });

  it('exits 1 with the validation errors on stderr when the answer does not conform, printing nothing', async () => {
    const file = writeFile('product.json', JSON.stringify(schema));
    ollama.script('Forty-two.', '{"product": "forty-two"}');
    const result = await ask(['--output-schema', file, 'What is 6*7?']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('does not conform to --output-schema');
    expect(result.stderr).toContain('product must be integer');
  });

  it('hostile pattern: a backtracking pattern against an answer a prompt injection wrote is refused at once, not run for minutes', async () => {
    const file = writeFile(
      'redos.json',
      JSON.stringify({ type: 'object', properties: { word: { type: 'string', pattern: '^(a+)+$' } } }),
    );
    ollama.script('A word.', JSON.stringify({ word: `${'a'.repeat(40)}!` }));
    const result = await ask(['--output-schema', file, 'A word?']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('does not conform to --output-schema');
  });

  it('reports the failure in --json too: the answer, and an error saying why', async () => {
    const file = writeFile('product.json', JSON.stringify(schema));
    ollama.script('Forty-two.', 'not json at all');
    const result = await ask(['--json', '--output-schema', file, 'What is 6*7?']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      answer: 'not json at all',
      error: { type: 'output-schema', message: expect.stringContaining('not JSON') },
    });
  });

  it('in stream-json, gives the checked answer as one message, not the draft', async () => {
    const file = writeFile('product.json', JSON.stringify(schema));
    ollama.script('The product is 42.', '{"product": 42}');
    const result = await ask(['--output-format', 'stream-json', '--output-schema', file, 'What is 6*7?']);
    expect(result.code).toBe(0);
    const messages = jsonLines(result.stdout).filter((line) => line.type === 'message' && line.role === 'assistant');
    expect(messages).toEqual([
      { type: 'message', timestamp: expect.any(String), role: 'assistant', content: '{"product": 42}' },
    ]);
  });

  it('with no tools to offer, the first request is the answer and carries the schema', async () => {
    const config = writeFile('no-tools.json', JSON.stringify({ mcpServers: {} }));
    const file = writeFile('product.json', JSON.stringify(schema));
    ollama.script('{"product": 42}');
    const result = await ask(['--config', config, '--output-schema', file, 'What is 6*7?']);
    expect(result).toMatchObject({ code: 0, stdout: '{"product": 42}\n' });
    expect(ollama.chatRequests.map((request) => request.format)).toEqual([schema]);
  });

  it('is a usage error (exit 2) when the schema file is missing or not JSON, before any request', async () => {
    const missing = await ask(['--output-schema', path.join(workDir, 'nowhere.json'), 'hi']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nowhere.json: no such file');
    const notJson = await ask(['--output-schema', writeFile('bad.json', '{"type": "object",'), 'hi']);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain('bad.json is not JSON');
    const notSchema = await ask(['--output-schema', writeFile('list.json', '[1, 2]'), 'hi']);
    expect(notSchema.code).toBe(2);
    expect(notSchema.stderr).toContain('does not hold a JSON Schema object');
    expect(ollama.chatRequests).toHaveLength(0);
  });
});

describe('ask --think', () => {
  it('sends think only when asked, and only to a model that can think', async () => {
    ollama.script('One.', { thinking: 'Hmm.', text: 'Two.' }, 'Three.');
    expect((await ask(['--model', 'qwen3', 'one'])).code).toBe(0);
    expect((await ask(['--model', 'qwen3', '--think=high', 'two'])).code).toBe(0);
    const plain = await ask(['--model', 'llama3.2', '--think', 'on', 'three']);
    expect(plain.code).toBe(0);
    expect(ollama.chatRequests.map((request) => request.think)).toEqual([undefined, 'high', undefined]);
    // Told once, on stderr: the fake (like Ollama) would have refused the request with `think`.
    expect(plain.stderr.match(/llama3\.2 cannot think/g)).toHaveLength(1);
    expect(plain.stdout).toBe('Three.\n');
  });

  it('refuses an unknown level (exit 2)', async () => {
    const result = await ask(['--think=loud', 'hi']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--think takes on, off, low, medium, high');
  });
});
