/**
 * Prompts and resources end to end, against the reference peer (server-everything): the built
 * binary lists them, `ask "/server:prompt …"` sends the prompt's messages to the model, and
 * `ask "@server:uri …"` attaches the resource's text, with the fake Ollama recording what it got.
 * Each scenario has a fake Ollama of its own, and they run at the same time: most of a run is the
 * CLI waiting on the server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { FakeOllama } from '../fakes/fake-ollama.js';
import { ownFakeOllama } from '../helpers/own-fake-ollama.js';
import { cleanEnv, runCli } from '../helpers/run-cli.js';
import { REPO_ROOT } from '../helpers/server-configs.js';

const EVERYTHING = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const ARCHITECTURE = 'demo://resource/static/document/architecture.md';
const RUN_MS = 60_000;

let workDir: string;
let config: string;

beforeAll(() => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-offers-')));
  config = path.join(workDir, 'mcp_config.json');
  fs.writeFileSync(
    config,
    JSON.stringify({ mcpServers: { everything: { command: 'node', args: [EVERYTHING, 'stdio'] } } }),
  );
});
afterAll(() => {
  fs.rmSync(workDir, { recursive: true, force: true });
});

function cli(ollama: FakeOllama, args: string[]) {
  const log = path.join(workDir, `log-${ollama.url.split(':').at(-1)}.jsonl`);
  const env = cleanEnv({ HOME: workDir, OLLAMA_HOST: ollama.url, MCP_CHAT_LOG_FILE: log });
  return runCli(['--config', config, ...args], { cwd: workDir, env, timeoutMs: RUN_MS });
}

/** The messages of the chat requests that reached the model (not the model-load pings). */
const sentMessages = (ollama: FakeOllama) =>
  ollama.chatRequests.filter((request) => request.messages.length > 0).map((request) => request.messages);

describe.concurrent('prompts and resources of server-everything', () => {
  it(
    'prompts --json lists each prompt with its arguments and whether each is required',
    async (test) => {
      const { expect } = test;
      const ollama = await ownFakeOllama(test);
      const result = await cli(ollama, ['prompts', '--json']);
      expect(result.code).toBe(0);
      const prompts = JSON.parse(result.stdout) as { server: string; name: string; arguments: unknown[] }[];
      expect(prompts).toContainEqual({
        server: 'everything',
        name: 'args-prompt',
        title: 'Arguments Prompt',
        description: 'A prompt with two arguments, one required and one optional',
        arguments: [
          { name: 'city', description: 'Name of the city', required: true },
          { name: 'state', required: false },
        ],
      });
      expect(prompts.map((prompt) => prompt.name)).toContain('simple-prompt');
    },
    RUN_MS,
  );

  it(
    'resources --json lists resources and templates; the text form names each as an @mention',
    async (test) => {
      const { expect } = test;
      const ollama = await ownFakeOllama(test);
      const json = await cli(ollama, ['resources', '--json']);
      expect(json.code).toBe(0);
      const { resources, templates } = JSON.parse(json.stdout) as {
        resources: { server: string; uri: string }[];
        templates: { server: string; uriTemplate: string }[];
      };
      expect(resources).toContainEqual(expect.objectContaining({ server: 'everything', uri: ARCHITECTURE }));
      expect(templates.map((template) => template.uriTemplate)).toContain('demo://resource/dynamic/text/{resourceId}');
      const text = await cli(ollama, ['resources']);
      expect(text.stdout).toContain(`@everything:${ARCHITECTURE}`);
    },
    RUN_MS,
  );

  it(
    'ask "/everything:simple-prompt" sends the prompt\'s messages as the turn',
    async (test) => {
      const { expect } = test;
      const ollama = await ownFakeOllama(test);
      ollama.script('A reply to the prompt.');
      const result = await cli(ollama, ['ask', '/everything:simple-prompt']);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('A reply to the prompt.\n');
      expect(sentMessages(ollama)[0]?.slice(1)).toEqual([
        { role: 'user', content: 'This is a simple prompt without arguments.' },
      ]);
    },
    RUN_MS,
  );

  it(
    'ask "/args-prompt city=…" finds a prompt only one server has, with a quoted argument',
    async (test) => {
      const { expect } = test;
      const ollama = await ownFakeOllama(test);
      ollama.script('Sunny.');
      const result = await cli(ollama, ['ask', '/args-prompt city="Porto Alegre"']);
      expect(result.code).toBe(0);
      expect(sentMessages(ollama)[0]?.at(-1)?.content).toContain('Porto Alegre');
    },
    RUN_MS,
  );

  it(
    'a prompt without its required argument is a usage error (exit 2) naming it, and the model is not asked',
    async (test) => {
      const { expect } = test;
      const ollama = await ownFakeOllama(test);
      const result = await cli(ollama, ['ask', '/everything:args-prompt']);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('error: everything:args-prompt needs city (Name of the city)');
      expect(result.stderr).toContain('Usage: /everything:args-prompt city=<city> [state=…]');
      expect(sentMessages(ollama)).toEqual([]);
    },
    RUN_MS,
  );

  it(
    'ask "@everything:<uri> summarise" attaches the resource\'s text to what the model sees',
    async (test) => {
      const { expect } = test;
      const ollama = await ownFakeOllama(test);
      ollama.script('Summary.');
      const result = await cli(ollama, ['ask', `Summarise @everything:${ARCHITECTURE}, briefly.`]);
      expect(result.code).toBe(0);
      const content = sentMessages(ollama)[0]?.at(-1)?.content ?? '';
      expect(
        content.startsWith(
          `Summarise @everything:${ARCHITECTURE}, briefly.\n\nResource @everything:${ARCHITECTURE}:\n`,
        ),
      ).toBe(true);
      const expected = fs.readFileSync(
        path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/docs/architecture.md'),
        'utf8',
      );
      expect(content).toContain(expected.slice(0, 200));
    },
    RUN_MS,
  );

  it(
    'a resource that cannot be read is an error naming it, before the model is asked',
    async (test) => {
      const { expect } = test;
      const ollama = await ownFakeOllama(test);
      const result = await cli(ollama, ['ask', 'what is in @everything:demo://resource/static/document/missing.md']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('error: could not attach @everything:demo://resource/static/document/missing.md');
      expect(sentMessages(ollama)).toEqual([]);
    },
    RUN_MS,
  );
});
