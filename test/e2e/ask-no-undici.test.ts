/**
 * `ask` speaks to Ollama over `node:http` and never needs undici: Node loads the whole of it the
 * first time anything touches the global `Headers`, `Request`, `Response` or `fetch`, which costs
 * a turn's start-up a visible slice of CPU. The built CLI runs a full tool-using turn with a
 * preload that reports, as the process exits, whether undici was loaded.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOllama, type FakeOllama } from '../fakes/fake-ollama.js';
import { cleanEnv, runCli } from '../helpers/run-cli.js';

const PROBE = `process.on('exit', () => {
  const loaded = process.moduleLoadList.some((name) => name.includes('undici'));
  process.stderr.write('undici loaded: ' + loaded + '\\n');
});
`;

let workDir: string;
let ollama: FakeOllama;

beforeAll(async () => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-undici-')));
  fs.writeFileSync(path.join(workDir, 'probe.cjs'), PROBE);
  ollama = await startFakeOllama({ models: [{ name: 'llama3.2', capabilities: ['completion'] }] });
});
afterAll(async () => {
  await ollama.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

describe('mcp-chat ask', () => {
  it('runs a turn with a tool call without loading undici', async () => {
    const call = { action: 'use_tool', server: 'calculator', tool: 'evaluate', arguments: { expression: '6*7' } };
    ollama.script(JSON.stringify(call), 'It is 42.');
    const env = cleanEnv({
      HOME: workDir,
      OLLAMA_HOST: ollama.url,
      MCP_CHAT_LOG_FILE: path.join(workDir, 'log.jsonl'),
      NODE_OPTIONS: `--require ${path.join(workDir, 'probe.cjs')}`,
    });
    const result = await runCli(['ask', 'What is 6*7?'], { cwd: workDir, env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('It is 42.');
    expect(ollama.chatRequests).toHaveLength(2);
    expect(result.stderr).toContain('undici loaded: false');
  });
});
