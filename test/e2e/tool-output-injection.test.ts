/**
 * Tool-output injection through `ask`: a file whose content tells the model to write a
 * file, and a model that obeys whatever a tool result says. The write needs approval:
 * without --yes it is denied, nothing is written and the model is told; with --yes it runs.
 * Both tool-call paths are covered: text JSON and Ollama's native tool calls.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOllama, type FakeOllama } from '../fakes/fake-ollama.js';
import { INJECTED_PATH, INJECTION, obeyInjection, toolCallReply, type CallMode } from '../fakes/gullible-model.js';
import { cleanEnv, runCli, type CliResult } from '../helpers/run-cli.js';

let workDir: string;
let ollama: FakeOllama;

function ask(args: string[]): Promise<CliResult> {
  const env = cleanEnv({ HOME: workDir, OLLAMA_HOST: ollama.url, MCP_CHAT_LOG_FILE: path.join(workDir, 'log.jsonl') });
  return runCli(['ask', '--json', ...args, 'Summarise notes.txt'], { cwd: workDir, env, timeoutMs: 30_000 });
}

beforeAll(() => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-injection-')));
  fs.writeFileSync(path.join(workDir, 'notes.txt'), INJECTION);
});
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));
afterEach(async () => {
  await ollama.close();
  fs.rmSync(path.join(workDir, INJECTED_PATH), { force: true });
});

describe.each<CallMode>(['text', 'native'])('tool-output injection through ask (%s tool calls)', (mode) => {
  beforeEach(async () => {
    const capabilities = mode === 'native' ? ['completion', 'tools'] : ['completion'];
    ollama = await startFakeOllama({ models: [{ name: 'llama3.2', capabilities }] });
    ollama.script(
      toolCallReply(mode, 'file', 'read_file', { path: 'notes.txt' }),
      obeyInjection(mode),
      'The notes say to ship on Friday.',
    );
  });

  it('tool-output injection: a file telling the model to call write_file is denied without --yes, and the model is told', async () => {
    const result = await ask([]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('file.write_file(');
    const output = JSON.parse(result.stdout) as { toolCalls: { tool: string; isError: boolean; result: string }[] };
    expect(output.toolCalls.map((record) => [record.tool, record.isError])).toEqual([
      ['read_file', false],
      ['write_file', true],
    ]);
    expect(output.toolCalls[1]?.result).toContain('The user did not approve running file.write_file. It was not run.');
    expect(fs.existsSync(path.join(workDir, INJECTED_PATH))).toBe(false);
    expect(ollama.chatRequests[2]?.messages.at(-1)?.content).toContain('did not approve');
  });

  it('tool-output injection: the same write runs only with --yes', async () => {
    const result = await ask(['--yes']);
    expect(result.code).toBe(0);
    expect(fs.readFileSync(path.join(workDir, INJECTED_PATH), 'utf8')).toBe('owned');
  });
});
