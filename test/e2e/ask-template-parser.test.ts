/**
 * The template parser `/api/show` names (Ollama v0.32.2) through the built binary: when
 * the model's own format holds a call, a call written in another syntax beside it is
 * text, not a second call; with no parser named, every format is read as before.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOllama, type FakeOllama } from '../fakes/fake-ollama.js';
import { cleanEnv, runCli } from '../helpers/run-cli.js';

// Olmo 3's own format, then a JSON call the reply goes on to write in another syntax.
const REPLY =
  '<function_calls>evaluate(expression="6*7")</function_calls>\n' +
  'Then I will list the directory: {"name": "list_directory", "arguments": {"path": "."}}';

let workDir: string;
let ollama: FakeOllama | undefined;

beforeAll(() => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-parser-')));
});
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));
afterEach(async () => {
  await ollama?.close();
  ollama = undefined;
});

async function toolsRun(parser: string | undefined): Promise<string[]> {
  const model = { name: 'llama3.2', capabilities: ['completion', 'tools'], ...(parser ? { parser } : {}) };
  ollama = await startFakeOllama({ models: [model] });
  ollama.script(REPLY, 'It is 42.');
  const env = cleanEnv({ HOME: workDir, OLLAMA_HOST: ollama.url, MCP_CHAT_LOG_FILE: path.join(workDir, 'log.jsonl') });
  const result = await runCli(['ask', '--json', 'What is 6*7?'], { cwd: workDir, env });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const output = JSON.parse(result.stdout) as { toolCalls: { tool: string }[] };
  return output.toolCalls.map((call) => call.tool);
}

describe('the template parser /api/show names', () => {
  it('reads the format of the model first: a call in another syntax beside it is not run', async () => {
    expect(await toolsRun('olmo3')).toEqual(['evaluate']);
  });

  it('without a parser named, every format is read', async () => {
    expect(await toolsRun(undefined)).toEqual(['evaluate', 'list_directory']);
  });
});
