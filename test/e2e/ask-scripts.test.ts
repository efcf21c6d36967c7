/**
 * What a script can rely on from `mcp-chat ask`: a denied call is said on stderr, recorded in
 * `--json`, and the run still exits 0 (it answered; the contract's codes); `--json` prints its one object (compact unless `--pretty`) even when Ollama
 * is down or the model missing; and Ollama being down ends the run while the servers still start.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeOllama, TEXT_MODEL, type FakeOllama } from '../fakes/fake-ollama.js';
import { cleanEnv, runCli } from '../helpers/run-cli.js';
import { CONDITION_WAIT } from '../helpers/condition-wait.js';
import { isProcessAlive } from '../helpers/server-configs.js';

let workDir: string;
let ollama: FakeOllama;

beforeAll(async () => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-ask-scripts-')));
  ollama = await startFakeOllama({ models: TEXT_MODEL });
});
afterAll(async () => {
  await ollama.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});
afterEach(() => fs.rmSync(path.join(workDir, 'mcp_config.json'), { force: true }));

function ask(args: string[], host = ollama.url, timeoutMs?: number): ReturnType<typeof runCli> {
  const env = cleanEnv({ HOME: workDir, OLLAMA_HOST: host, MCP_CHAT_LOG_FILE: path.join(workDir, 'log.jsonl') });
  return runCli(['ask', ...args], { cwd: workDir, env, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
}

/** A URL where nothing listens: a fake's, once it is closed. */
async function deadUrl(): Promise<string> {
  const gone = await startFakeOllama();
  await gone.close();
  return gone.url;
}

const write = JSON.stringify({
  action: 'use_tool',
  server: 'file',
  tool: 'write_file',
  arguments: { path: 'out.txt', content: 'hello' },
});

describe('ask without --yes, a call that needs approval', () => {
  it('is said on stderr (which call, and what would run it), recorded in --json, and still exits 0 (the turn answered)', async () => {
    ollama.script(write, 'Done.');
    const result = await ask(['--json', 'Write hello to out.txt']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      'warning: file.write_file(path="out.txt", content="hello") was not run: it needs approval. ' +
        'Run with --yes, or add "write_file" to the "alwaysAllow" of server "file"\n',
    );
    const printed = JSON.parse(result.stdout) as { denied: unknown[]; answer: string };
    expect(printed.answer).toBe('Done.');
    expect(printed.denied).toEqual([
      { id: 'call_1', server: 'file', tool: 'write_file', arguments: { path: 'out.txt', content: 'hello' } },
    ]);
    expect(fs.existsSync(path.join(workDir, 'out.txt'))).toBe(false);
  });

  it('says so in plain text output too, the answer still on stdout', async () => {
    ollama.script(write, 'Done.');
    const result = await ask(['Write hello to out.txt']);
    expect(result).toMatchObject({ code: 0, stdout: 'Done.\n' });
    expect(result.stderr).toContain('file.write_file(');
  });
});

describe('ask --json', () => {
  it('is one compact line by default, and indented with --pretty', async () => {
    ollama.script('Forty-two.', 'Forty-two.');
    const compact = await ask(['--json', 'What is 6*7?']);
    expect(compact.code).toBe(0);
    expect(compact.stdout.split('\n')).toEqual([expect.stringMatching(/^\{"answer":"Forty-two\.",/), '']);
    const pretty = await ask(['--json', '--pretty', 'What is 6*7?']);
    expect(pretty.stdout).toMatch(/^\{\n {2}"answer": "Forty-two\.",\n/);
    expect(JSON.parse(pretty.stdout)).toEqual({ ...JSON.parse(compact.stdout), stats: expect.any(Object) });
  });

  it('prints one error object on stdout when Ollama is unreachable, exit 1', async () => {
    const url = await deadUrl();
    const result = await ask(['--json', 'hello'], url);
    expect(result.code).toBe(1);
    const printed = JSON.parse(result.stdout) as { answer: string; error: { type: string; message: string } };
    expect(printed).toMatchObject({ answer: '', model: 'llama3.2', toolCalls: [], denied: [] });
    expect(printed.error.type).toBe('ollama');
    expect(printed.error.message).toContain(url);
    expect(result.stderr).toContain('ollama serve');
  });

  it('prints one error object on stdout when the model is missing, exit 1', async () => {
    const result = await ask(['--json', '--model', 'qwen3:8b', 'hello']);
    expect(result.code).toBe(1);
    const printed = JSON.parse(result.stdout) as { model: string; error: { message: string } };
    expect(printed.model).toBe('qwen3:8b');
    expect(printed.error.message).toContain('qwen3:8b is not available');
  });
});

describe('ask when Ollama is down', () => {
  it('fails while the servers are still starting, not after them, and leaves no server running', async () => {
    // A server that never answers `initialize`: the host would wait its whole start-up timeout (30 s).
    const pidFile = path.join(workDir, 'silent.pid');
    const silent = `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000);`;
    fs.writeFileSync(
      path.join(workDir, 'mcp_config.json'),
      JSON.stringify({ mcpServers: { silent: { command: process.execPath, args: ['-e', silent] } } }),
    );
    const url = await deadUrl();
    // Killed at 20 s (code null) had it waited for the silent server.
    const result = await ask(['--trust', 'hello'], url, 20_000);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('ollama serve');
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    await vi.waitFor(() => expect(isProcessAlive(pid)).toBe(false), CONDITION_WAIT);
  });
});
