/**
 * Automatic compaction in `ask --session`, end to end (the built binary, the fake Ollama): with
 * `history.compact_at` set low and a small `num_ctx`, the third ask compacts the first exchange
 * into a summary before its turn; stdout stays the answer's alone (`--json` unchanged), the request
 * carries the summary instead of the exchange, and the saved session holds it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOllama, type FakeChatRequest, type FakeOllama } from '../fakes/fake-ollama.js';
import { cleanEnv, runCli } from '../helpers/run-cli.js';

const RUN_MS = 60_000;
const SUMMARY_HEADING = 'Summary of the earlier turns of this conversation, which it replaces:';
const long = (topic: string): string => `${topic} ${'and some detail about it '.repeat(30).trim()}`;
const isSummaryRequest = (request: FakeChatRequest): boolean =>
  request.messages[0]?.content.includes('Write a concise summary of the conversation so far') === true;

let workDir: string;
let ollama: FakeOllama;

beforeAll(async () => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-ask-compact-')));
  const config = { mcpServers: {}, ollama: { num_ctx: 2048 }, history: { compact_at: 0.3 } };
  fs.writeFileSync(path.join(workDir, 'config.json'), JSON.stringify(config));
  ollama = await startFakeOllama({ models: [{ name: 'llama3.2', capabilities: ['completion'] }] });
});
afterAll(async () => {
  await ollama.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

function ask(args: string[]) {
  const env = cleanEnv({
    HOME: workDir,
    XDG_STATE_HOME: path.join(workDir, 'state'),
    OLLAMA_HOST: ollama.url,
    MCP_CHAT_LOG_FILE: path.join(workDir, 'log.jsonl'),
  });
  const config = path.join(workDir, 'config.json');
  return runCli(['--config', config, 'ask', '--session', 'trip', ...args], { cwd: workDir, env, timeoutMs: RUN_MS });
}

describe('ask --session with history.compact_at', () => {
  it(
    'compacts the earlier exchange before the turn that would pass the share',
    async () => {
      ollama.script('Noted the code word.', 'Noted the budget.');
      expect((await ask([long('The code word is PINEAPPLE.')])).stdout).toBe('Noted the code word.\n');
      expect((await ask([long('The budget is 4,200 euros.')])).stdout).toBe('Noted the budget.\n');
      expect(ollama.chatRequests.filter(isSummaryRequest)).toHaveLength(0);

      ollama.script('The code word is PINEAPPLE.', 'Friday it is.');
      const third = await ask(['--json', long('The deadline is Friday.')]);
      expect(third.code).toBe(0);
      expect(JSON.parse(third.stdout)).toMatchObject({ answer: 'Friday it is.', steps: 1, toolCalls: [] });

      const [summaryRequest, ...more] = ollama.chatRequests.filter(isSummaryRequest);
      expect(more).toHaveLength(0);
      expect(summaryRequest?.messages[1]?.content).toContain('User: The code word is PINEAPPLE.');
      const turn = ollama.chatRequests.filter((request) => request.messages.length > 0).at(-1);
      const contents = (turn?.messages ?? []).map((message) => message.content);
      expect(contents[1]).toBe(`${SUMMARY_HEADING}\nThe code word is PINEAPPLE.`);
      expect(contents.slice(2)).toEqual([
        long('The budget is 4,200 euros.'),
        'Noted the budget.',
        long('The deadline is Friday.'),
      ]);

      const saved = JSON.parse(
        fs.readFileSync(path.join(workDir, 'state', 'mcp-chat', 'sessions', 'trip.json'), 'utf8'),
      ) as { messages: { role: string; content: string }[] };
      expect(saved.messages[0]).toEqual({ role: 'system', content: `${SUMMARY_HEADING}\nThe code word is PINEAPPLE.` });
      expect(saved.messages).toHaveLength(5);
    },
    3 * RUN_MS,
  );
});
