/**
 * Many tools, a small context: `mcp-chat ask` with our three servers and six popular npm servers
 * (100 tools, about 31,700 tokens of definitions) at num_ctx 8192, through the built binary, the
 * real servers over stdio and the fake Ollama. The catalogue is over its budget, so each request
 * offers the tools that fit, ranked for it, and `find_tools` for the rest.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOllama, type FakeChatRequest, type FakeOllama } from '../fakes/fake-ollama.js';
import { cleanEnv, runCli } from '../helpers/run-cli.js';
import { REPO_ROOT } from '../helpers/server-configs.js';

const CONFIG = path.join(REPO_ROOT, 'test/fixtures/many-tools/mcp_config.json');
/** Nine servers start in each run, two of them large packages: generous on a busy machine. */
const RUN_MS = 60_000;
const BUDGET_TOKENS = 2048;

let workDir: string;
let ollama: FakeOllama;

beforeAll(() => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-many-')));
});
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));
afterEach(() => ollama.close());

function ask(args: string[], env: Record<string, string> = {}, config = CONFIG) {
  return runCli(['--config', config, 'ask', '--json', ...args], {
    cwd: workDir,
    timeoutMs: RUN_MS,
    env: cleanEnv({
      HOME: workDir,
      REPO: REPO_ROOT,
      WORKDIR: workDir,
      OLLAMA_HOST: ollama.url,
      MCP_CHAT_LOG_FILE: path.join(workDir, 'log.jsonl'),
      ...env,
    }),
  });
}

/** A tool of a request's list as Ollama receives it. */
interface WireTool {
  type: 'function';
  function: { name: string };
}

const wireTools = (request: FakeChatRequest | undefined): WireTool[] => (request?.tools ?? []) as WireTool[];
const offeredNames = (request: FakeChatRequest | undefined): string[] =>
  wireTools(request).map((tool) => tool.function.name);

/** The context check's estimate of what the request's tool list takes. */
const toolTokens = (request: FakeChatRequest | undefined): number =>
  wireTools(request).reduce((sum, tool) => sum + Math.ceil(JSON.stringify(tool).length / 4), 0);

/** The nine-server config with an embedding model named. */
function configWithEmbeddings(model: string): string {
  const file = path.join(workDir, `embed-${model}.json`);
  const config = JSON.parse(fs.readFileSync(CONFIG, 'utf8')) as Record<string, unknown>;
  fs.writeFileSync(file, JSON.stringify({ ...config, tools: { embed_model: model } }));
  return file;
}

interface EmbedRequest {
  model: string;
  input: string[];
}

interface AskJson {
  answer: string;
  toolCalls: { server: string; tool: string; isError: boolean; result: string }[];
  toolsOffered: {
    step: number;
    catalogue: number;
    budgetTokens: number;
    tokens: number;
    listedTokens?: number;
    tools: { name: string; listed?: true }[];
    embeddings?: unknown;
  }[];
}

describe('ask with 100 tools at num_ctx 8192', () => {
  it(
    'answers "hello" instead of refusing it: the first request offers only what fits the budget, and find_tools',
    async () => {
      ollama = await startFakeOllama();
      ollama.script('Hello! How can I help?');
      const result = await ask(['hello']);
      expect(result.stderr).not.toContain('too long');
      expect(result.code).toBe(0);
      const output = JSON.parse(result.stdout) as AskJson;
      expect(output.answer).toBe('Hello! How can I help?');
      const [offer] = output.toolsOffered;
      expect(offer).toMatchObject({ step: 1, budgetTokens: BUDGET_TOKENS });
      expect(offer?.catalogue).toBeGreaterThan(90);
      expect(offer?.tokens).toBeLessThanOrEqual(BUDGET_TOKENS);
      const [request] = ollama.chatRequests.filter((chat) => chat.messages.length > 0);
      expect(toolTokens(request)).toBeLessThanOrEqual(BUDGET_TOKENS);
      expect(offeredNames(request)).toContain('mcp-chat__find_tools');
      const definitions = offer?.tools.filter((tool) => !tool.listed) ?? [];
      expect(offeredNames(request).length).toBe(definitions.length + 1);
      expect(offer?.tools.length).toBeLessThan(offer?.catalogue ?? 0);
    },
    RUN_MS,
  );

  it(
    'find_tools finds a tool that was not offered, and the next request offers it',
    async () => {
      ollama = await startFakeOllama();
      ollama.script(
        { toolCalls: [{ name: 'mcp-chat__find_tools', arguments: { query: 'press a key on the keyboard' } }] },
        'I can press keys in the browser now.',
      );
      const result = await ask(['what can you do with my notes?']);
      expect(result.code).toBe(0);
      const [first, second] = ollama.chatRequests.filter((chat) => chat.messages.length > 0);
      expect(offeredNames(first)).not.toContain('playwright__browser_press_key');
      expect(offeredNames(second)).toContain('playwright__browser_press_key');
      const found = second?.messages.at(-1);
      expect(found).toMatchObject({ role: 'tool' });
      expect(found?.content).toContain('playwright.browser_press_key');
      const output = JSON.parse(result.stdout) as AskJson;
      expect(output.toolCalls).toMatchObject([{ server: 'mcp-chat', tool: 'find_tools', isError: false }]);
      expect(output.toolsOffered[1]?.tools).toContainEqual({ name: 'playwright.browser_press_key', reason: 'found' });
    },
    RUN_MS,
  );

  it(
    'a call to a tool that exists but was not offered still runs: it is resolved against the whole catalogue',
    async () => {
      ollama = await startFakeOllama();
      ollama.script({ toolCalls: [{ name: 'everything__echo', arguments: { message: 'ping' } }] }, 'It echoed ping.');
      const result = await ask(['--yes', 'take a screenshot of the page']);
      expect(result.code).toBe(0);
      const [first] = ollama.chatRequests.filter((chat) => chat.messages.length > 0);
      expect(offeredNames(first)).not.toContain('everything__echo');
      const output = JSON.parse(result.stdout) as AskJson;
      expect(output.toolsOffered[0]?.tools.map((tool) => tool.name)).not.toContain('everything.echo');
      expect(output.toolCalls).toMatchObject([{ server: 'everything', tool: 'echo', isError: false }]);
      expect(output.toolCalls[0]?.result).toContain('ping');
    },
    RUN_MS,
  );

  it(
    'natively, the tools past the first few are listed in the system prompt, and one called there as text runs',
    async () => {
      ollama = await startFakeOllama();
      const call = { action: 'use_tool', server: 'filesystem', tool: 'list_allowed_directories', arguments: {} };
      ollama.script(JSON.stringify(call), 'One directory.');
      const result = await ask(['--yes', 'hello']);
      expect(result.code).toBe(0);
      const output = JSON.parse(result.stdout) as AskJson;
      const [offer] = output.toolsOffered;
      const listed = offer?.tools.filter((tool) => tool.listed) ?? [];
      expect(listed).toContainEqual(
        expect.objectContaining({ name: 'filesystem.list_allowed_directories', reason: 'ranked' }),
      );
      const [first] = ollama.chatRequests.filter((chat) => chat.messages.length > 0);
      // Sent as definitions: the tools not listed, and find_tools.
      expect(offeredNames(first)).toHaveLength((offer?.tools.length ?? 0) - listed.length + 1);
      expect(offeredNames(first)).not.toContain('filesystem__list_allowed_directories');
      const system = String(first?.messages[0]?.content);
      const section = system.slice(system.indexOf('# More tools'));
      expect(section).toContain('reply with ONLY this JSON object');
      for (const { name } of listed) expect(section).toContain(`- ${name.slice(name.indexOf('.') + 1)}(`);
      // What the section takes is what the offer counted, and with the definitions it keeps the budget.
      expect(Math.ceil(section.length / 4)).toBeLessThanOrEqual(offer?.listedTokens ?? 0);
      expect(toolTokens(first) + (offer?.listedTokens ?? 0)).toBeLessThanOrEqual(BUDGET_TOKENS);
      expect(output.toolCalls).toMatchObject([
        { server: 'filesystem', tool: 'list_allowed_directories', isError: false },
      ]);
      expect(output.toolCalls[0]?.result).toContain(workDir);
      expect(output.answer).toBe('One directory.');
    },
    RUN_MS,
  );

  it(
    'tools.embed_model: tools are ranked with Ollama embeddings, each tool text embedded once across runs',
    async () => {
      ollama = await startFakeOllama({
        models: [{ name: 'llama3.2' }, { name: 'nomic-embed-text', capabilities: ['embedding'] }],
      });
      ollama.script('First answer.', 'Second answer.');
      const config = configWithEmbeddings('nomic-embed-text');
      const first = await ask(['take a screenshot of the page'], {}, config);
      expect(first.code).toBe(0);
      const [offer] = (JSON.parse(first.stdout) as AskJson).toolsOffered;
      expect(offer?.embeddings).toBe('used');
      const second = await ask(['take a screenshot of the page'], {}, config);
      expect(second.code).toBe(0);
      const embeds = ollama.requests
        .filter((request) => request.path === '/api/embed')
        .map((r) => r.body as EmbedRequest);
      const batches = embeds.map((body) => body.input.length).sort((a, b) => a - b);
      // Run one: every tool's text and the request; run two: the request only (the tool vectors are on disk).
      expect(batches).toEqual([1, 1, offer?.catalogue]);
      expect(embeds.every((body) => body.model === 'nomic-embed-text')).toBe(true);
    },
    RUN_MS,
  );

  it(
    'an embedding model that is not pulled does not break the turn: the offer says why, the ranking goes on by words',
    async () => {
      ollama = await startFakeOllama();
      ollama.script('Still here.');
      const result = await ask(['take a screenshot of the page'], {}, configWithEmbeddings('not-pulled'));
      expect(result.code).toBe(0);
      const output = JSON.parse(result.stdout) as AskJson;
      expect(output.answer).toBe('Still here.');
      expect(output.toolsOffered[0]?.embeddings).toEqual({ failed: expect.stringContaining('not-pulled') });
      expect(output.toolsOffered[0]?.tools[0]).toMatchObject({ name: 'playwright.browser_take_screenshot' });
    },
    RUN_MS,
  );
});
