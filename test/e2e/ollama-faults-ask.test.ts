/**
 * Ollama failing under `mcp-chat ask`: the built binary, real servers, the fake Ollama
 * playing each fault. The user gets one error line and a hint, never a stack trace; exit 1;
 * every server the run started is gone. (Ollama refusing connections: test/e2e/ask.test.ts.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeOllama, type FakeOllama, type FakeReplySpec } from '../fakes/fake-ollama.js';
import { cleanEnv, runCli } from '../helpers/run-cli.js';
import { descendants, isProcessAlive } from '../helpers/server-configs.js';
import { CONDITION_WAIT } from '../helpers/condition-wait.js';

let workDir: string;
let ollama: FakeOllama;

beforeAll(async () => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-ollama-faults-')));
  // `timeout` is in seconds: one second keeps the slow-answer case short. The file is the working
  // directory's own, which is used only when trusted: each run passes --trust.
  fs.writeFileSync(
    path.join(workDir, 'mcp_config.json'),
    JSON.stringify({
      ollama: { timeout: 1 },
      mcpServers: {
        calculator: { command: process.execPath, args: [path.resolve('dist/servers/calculator/main.js')] },
      },
    }),
  );
  ollama = await startFakeOllama({ models: [{ name: 'llama3.2', capabilities: ['completion'] }] });
});
afterAll(async () => {
  await ollama.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

interface OllamaFault {
  fault: string;
  reply: FakeReplySpec;
  message: (url: string) => string;
  hint?: string;
  /** What had streamed to stdout before the fault (the answer so far, no newline). */
  stdout?: string;
}

const FAULTS: OllamaFault[] = [
  {
    fault: 'answers 500',
    reply: { status: 500, error: 'llama runner process has terminated: signal: killed' },
    message: (url) => `Ollama at ${url} answered HTTP 500: llama runner process has terminated: signal: killed`,
  },
  {
    fault: 'drops the stream half-way',
    reply: { text: 'The answer is one two three', dropAfterChunks: 2 },
    message: (url) => `Ollama at ${url} failed mid-reply: the connection was lost`,
    stdout: 'The answer',
    hint: 'Check that Ollama is still running; it may have run out of memory',
  },
  {
    fault: 'answers slowly, past the timeout',
    reply: { text: 'Too late.', firstChunkDelayMs: 60_000 },
    message: (url) => `Ollama at ${url} sent nothing for 1 s`,
    hint: 'A model that is still loading can take a while; raise `ollama.timeout` in the config',
  },
  {
    fault: 'streams invalid JSON',
    reply: { text: 'Never readable.', garble: 'all' },
    message: (url) => `Ollama at ${url} failed mid-reply: the stream ended before the reply was complete`,
    hint: 'Check that Ollama is still running; it may have run out of memory',
  },
];

describe.each(FAULTS)('mcp-chat ask when Ollama $fault', ({ reply, message, hint, stdout }) => {
  it('prints one error line and its hint, exits 1, and leaves no child process', async () => {
    let running: number[] = [];
    ollama.script(() => {
      // The servers are up while the model is asked: note every process the run started.
      running = descendants(process.pid);
      return reply;
    });
    const env = cleanEnv({
      HOME: workDir,
      OLLAMA_HOST: ollama.url,
      MCP_CHAT_LOG_FILE: path.join(workDir, 'log.jsonl'),
    });
    const result = await runCli(['ask', '--trust', 'What is 2+2?'], { cwd: workDir, env });
    expect(result.stdout).toBe(stdout ?? '');
    expect(result.stderr).toBe(`error: ${message(ollama.url)}\n${hint ? `${hint}\n` : ''}`);
    expect(result.code).toBe(1);
    // The binary, the calculator and its evaluator at least.
    expect(running.length).toBeGreaterThanOrEqual(3);
    // The calculator's evaluator is a grandchild: it exits moments after its server, on its own.
    await vi.waitFor(() => expect(running.filter(isProcessAlive)).toEqual([]), CONDITION_WAIT);
  });
});

describe('mcp-chat ask when Ollama sends one line that is not JSON', () => {
  it('skips that line, logs it, and prints the whole answer', async () => {
    ollama.script({ text: 'Two plus two is four.', garble: 'line' });
    const logFile = path.join(workDir, 'garbled.jsonl');
    const env = cleanEnv({ HOME: workDir, OLLAMA_HOST: ollama.url, MCP_CHAT_LOG_FILE: logFile });
    const result = await runCli(['ask', '--trust', 'What is 2+2?'], { cwd: workDir, env });
    expect(result).toEqual({ code: 0, stdout: 'Two plus two is four.\n', stderr: '' });
    expect(fs.readFileSync(logFile, 'utf8')).toContain('ollama sent a line that is not a JSON object; skipped');
  });
});
