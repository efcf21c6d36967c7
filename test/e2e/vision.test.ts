/**
 * An image from a tool reaches a model that can see, end to end: `mcp-chat ask --json` through
 * the built binary, server-everything over stdio from a config file, and the fake Ollama serving
 * a model with the `vision` capability. The debug log keeps the request without the image's data.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOllama, startFakeOllama } from '../fakes/fake-ollama.js';
import { cleanEnv, runCli } from '../helpers/run-cli.js';
import { REPO_ROOT } from '../helpers/server-configs.js';

const EVERYTHING_DIR = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist');
const TINY_IMAGE: string = (
  (await import(path.join(EVERYTHING_DIR, 'tools/get-tiny-image.js'))) as { MCP_TINY_IMAGE: string }
).MCP_TINY_IMAGE;
const RUN_MS = 60_000;

let workDir: string;
let ollama: FakeOllama;

beforeAll(() => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-vision-')));
  fs.writeFileSync(
    path.join(workDir, 'mcp_config.json'),
    JSON.stringify({
      ollama: { model: 'llava' },
      mcpServers: { everything: { command: 'node', args: [path.join(EVERYTHING_DIR, 'index.js'), 'stdio'] } },
    }),
  );
});
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));
afterEach(() => ollama.close());

interface AskJson {
  answer: string;
  toolCalls: { server: string; tool: string; isError: boolean; result: string }[];
}

describe('ask with a vision model', () => {
  it(
    'get-tiny-image: the image reaches the model in the tool message’s `images`, and ask --json shows its line',
    async () => {
      ollama = await startFakeOllama({ models: [{ name: 'llava', capabilities: ['completion', 'tools', 'vision'] }] });
      ollama.script({ toolCalls: [{ name: 'everything__get-tiny-image', arguments: {} }] }, 'It is the MCP logo.');
      const logFile = path.join(workDir, 'log.jsonl');
      const result = await runCli(
        ['--config', path.join(workDir, 'mcp_config.json'), 'ask', '--json', '--yes', 'What is the tiny image?'],
        {
          cwd: workDir,
          timeoutMs: RUN_MS,
          env: cleanEnv({ HOME: workDir, OLLAMA_HOST: ollama.url, MCP_CHAT_LOG_FILE: logFile }),
        },
      );
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const output = JSON.parse(result.stdout) as AskJson;
      expect(output.answer).toBe('It is the MCP logo.');
      expect(output.toolCalls).toMatchObject([{ server: 'everything', tool: 'get-tiny-image', isError: false }]);
      expect(output.toolCalls[0]?.result).toContain('[image png 20×20, 4.0 kB]');
      expect(output.toolCalls[0]?.result).not.toContain(TINY_IMAGE.slice(0, 40));

      const [, second] = ollama.chatRequests.filter((request) => request.messages.length > 0);
      const message = second?.messages.at(-1);
      expect(message).toMatchObject({ role: 'tool', tool_name: 'everything__get-tiny-image' });
      expect(message?.images).toEqual([TINY_IMAGE]);
      // The log (at debug, it holds each request's body) keeps the image as its size.
      const log = fs.readFileSync(logFile, 'utf8');
      expect(log).toContain('<image, 4033 bytes>');
      expect(log).not.toContain(TINY_IMAGE.slice(0, 40));
    },
    RUN_MS,
  );
});
