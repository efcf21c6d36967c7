/**
 * Security: a tool's `outputSchema` cannot freeze the client. A real stdio server declares an
 * output schema whose `pattern` backtracks catastrophically on the word it returns, and another
 * with a pattern no linear-time engine takes; through the real `ask`, each call comes back as an
 * error result that says why, and the next call on the same server still answers.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOllama, type FakeOllama } from '../fakes/fake-ollama.js';
import { cleanEnv, runCli } from '../helpers/run-cli.js';
import { REPO_ROOT } from '../helpers/server-configs.js';
import { textCall } from '../helpers/turns.js';

const PATTERNS = path.join(REPO_ROOT, 'test/fixtures/servers/pattern-schema-server.mjs');

let workDir: string;
let config: string;
let ollama: FakeOllama;

beforeAll(() => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-redos-')));
  config = path.join(workDir, 'mcp_config.json');
  const entry = { command: process.execPath, args: [PATTERNS] };
  fs.writeFileSync(config, JSON.stringify({ mcpServers: { patterns: entry } }));
});
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));
beforeEach(async () => {
  ollama = await startFakeOllama({ models: [{ name: 'llama3.2', capabilities: ['completion'] }] });
});
afterEach(() => ollama.close());

describe('output schema patterns', () => {
  it('a catastrophically backtracking pattern and an unsupported one fail their calls; the next call answers', async () => {
    ollama.script(
      textCall('patterns', 'bomb', {}),
      textCall('patterns', 'lookahead', {}),
      textCall('patterns', 'echo', { text: 'still here' }),
      'Done.',
    );
    const env = cleanEnv({
      HOME: workDir,
      OLLAMA_HOST: ollama.url,
      MCP_CHAT_LOG_FILE: path.join(workDir, 'log.jsonl'),
    });
    const result = await runCli(['ask', '--json', '--yes', '--config', config, 'go'], { cwd: workDir, env });
    expect(result.code, result.stderr).toBe(0);
    const { toolCalls, answer } = JSON.parse(result.stdout) as {
      answer: string;
      toolCalls: { tool: string; isError: boolean; result: string }[];
    };
    expect(toolCalls.map((call) => [call.tool, call.isError])).toEqual([
      ['bomb', true],
      ['lookahead', true],
      ['echo', false],
    ]);
    expect(toolCalls[0]?.result).toContain('output schema');
    expect(toolCalls[1]?.result).toContain('^(?=a)a+$');
    expect(toolCalls[2]?.result).toBe('echo: still here');
    expect(answer).toBe('Done.');
  });
});
