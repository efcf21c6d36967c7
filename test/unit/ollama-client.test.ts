import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage, LlmChunk, LlmClient, LlmRequest } from '../../src/vocabulary/types.js';
import type { OllamaSettings } from '../../src/config/types.js';
import { OllamaError } from '../../src/shared/errors.js';
import { silentLogger } from '../../src/shared/log.js';
import { createOllamaClient, type OllamaClient } from '../../src/ollama/client.js';
import { type FakeModel, type FakeOllama, startFakeOllama } from '../fakes/fake-ollama.js';

let fake: FakeOllama;

afterEach(async () => {
  await fake.close();
});

function settingsFor(url: string, overrides: Partial<OllamaSettings> = {}): OllamaSettings {
  return {
    baseUrl: url,
    model: 'llama3.2',
    timeoutMs: 10_000,
    numCtx: 8192,
    toolMode: 'auto',
    options: { temperature: 0 },
    ...overrides,
  };
}

async function start(models?: FakeModel[], overrides: Partial<OllamaSettings> = {}): Promise<OllamaClient> {
  fake = await startFakeOllama(models ? { models } : {});
  return createOllamaClient(settingsFor(fake.url, overrides), silentLogger);
}

async function collect(llm: LlmClient, request: Partial<LlmRequest> = {}): Promise<LlmChunk[]> {
  const chunks: LlmChunk[] = [];
  for await (const chunk of llm.chat({ messages: [{ role: 'user', content: 'hi' }], ...request })) chunks.push(chunk);
  return chunks;
}

function textOf(chunks: LlmChunk[], type: 'content' | 'thinking'): string {
  return chunks.map((chunk) => (chunk.type === type ? chunk.text : '')).join('');
}

const weather = { name: 'get_weather', arguments: { city: 'Tokyo' } };

describe('OllamaClient.chat streaming', () => {
  it('streams text in several content chunks, then done with metrics in ms', async () => {
    const llm = await start();
    fake.script({ text: 'The answer is four.', evalCount: 7 });
    const chunks = await collect(llm);
    expect(chunks.filter((chunk) => chunk.type === 'content').length).toBeGreaterThan(1);
    expect(textOf(chunks, 'content')).toBe('The answer is four.');
    const done = chunks[chunks.length - 1];
    expect(done).toMatchObject({ type: 'done', doneReason: 'stop', evalCount: 7 });
    expect(done?.type === 'done' && Number.isInteger(done.totalDurationMs)).toBe(true);
    expect(done?.type === 'done' ? done.totalDurationMs : 0).toBeLessThan(10_000);
  });

  it('yields thinking chunks before the content', async () => {
    const llm = await start([{ name: 'qwen3', capabilities: ['completion', 'tools', 'thinking'] }], { model: 'qwen3' });
    fake.script({ thinking: 'The user greets me.', text: 'Hello!' });
    const chunks = await collect(llm);
    expect(textOf(chunks, 'thinking')).toBe('The user greets me.');
    expect(textOf(chunks, 'content')).toBe('Hello!');
    expect(chunks.findLastIndex((chunk) => chunk.type === 'thinking')).toBeLessThan(
      chunks.findIndex((chunk) => chunk.type === 'content'),
    );
  });

  it('reads tool calls from a done:false chunk', async () => {
    const llm = await start();
    fake.script({ toolCalls: [weather] });
    const chunks = await collect(llm);
    expect(chunks).toEqual([
      { type: 'tool_calls', calls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Tokyo' } }] },
      expect.objectContaining({ type: 'done', doneReason: 'stop' }),
    ]);
  });

  it('reads tool calls from the done:true chunk too', async () => {
    const llm = await start();
    fake.script({ toolCalls: [weather, { name: 'get_time', arguments: {} }], toolCallsIn: 'done' });
    const chunks = await collect(llm);
    const calls = chunks.flatMap((chunk) => (chunk.type === 'tool_calls' ? chunk.calls : []));
    expect(calls.map((call) => call.name)).toEqual(['get_weather', 'get_time']);
    expect(chunks[chunks.length - 1]?.type).toBe('done');
  });

  it('reads string arguments as the JSON object they hold, and marks ones that hold none', async () => {
    const llm = await start();
    fake.script({
      toolCalls: [
        { name: 'get_weather', arguments: '{"city":"Paris"}' },
        { name: 'get_time', arguments: '[1, 2]' },
      ],
    });
    const chunks = await collect(llm);
    expect(chunks[0]).toEqual({
      type: 'tool_calls',
      calls: [
        { id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } },
        { id: 'call_2', name: 'get_time', arguments: undefined },
      ],
    });
  });

  it('reports done_reason length', async () => {
    const llm = await start();
    fake.script({ text: '{"action": "use_', doneReason: 'length' });
    const chunks = await collect(llm);
    expect(chunks[chunks.length - 1]).toMatchObject({ type: 'done', doneReason: 'length' });
  });
});

describe('OllamaClient.chat request', () => {
  it('sends model, stream:true, num_ctx with the configured options, and no tools unless given', async () => {
    const llm = await start(undefined, { numCtx: 16384, options: { temperature: 0.2, seed: 42 } });
    fake.script('ok');
    await collect(llm);
    const [body] = fake.chatRequests;
    expect(body).toMatchObject({
      model: 'llama3.2',
      stream: true,
      options: { num_ctx: 16384, temperature: 0.2, seed: 42 },
    });
    expect(body && 'tools' in body).toBe(false);
  });

  it('lets the configured options override num_ctx', async () => {
    const llm = await start(undefined, { options: { num_ctx: 2048 } });
    fake.script('ok');
    await collect(llm);
    expect(fake.chatRequests[0]?.options).toEqual({ num_ctx: 2048 });
  });

  it('maps messages to the wire shape: tool_calls, tool_name, arguments that were no object as an empty one', async () => {
    const llm = await start();
    fake.script('It is 11 degrees in Toronto.');
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You are helpful.' },
      { role: 'user', content: 'Weather in Toronto?' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'call_7', name: 'get_weather', arguments: { city: 'Toronto' } },
          { name: 'get_time', arguments: undefined },
        ],
      },
      { role: 'tool', content: '11 degrees celsius', toolName: 'get_weather' },
      { role: 'user', content: 'Result: 3', toolResult: true },
    ];
    const weather = {
      name: 'get_weather',
      description: 'Weather',
      parameters: { type: 'object' as const, properties: { city: { type: 'string' } } },
    };
    await collect(llm, { messages, tools: [weather] });
    const [body] = fake.chatRequests;
    expect(body?.messages).toEqual([
      { role: 'system', content: 'You are helpful.' },
      { role: 'user', content: 'Weather in Toronto?' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 'call_7', function: { name: 'get_weather', arguments: { city: 'Toronto' } } },
          { function: { name: 'get_time', arguments: {} } },
        ],
      },
      { role: 'tool', content: '11 degrees celsius', tool_name: 'get_weather' },
      { role: 'user', content: 'Result: 3' },
    ]);
    expect(body?.tools).toEqual([{ type: 'function', function: weather }]);
  });
});

describe('OllamaClient checks and capabilities', () => {
  it('checkAvailable asks /api/version', async () => {
    const llm = await start();
    await llm.checkAvailable();
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/version']);
  });

  it('checkModel accepts llama3.2 for llama3.2:latest, and an explicit tag', async () => {
    const llm = await start([{ name: 'llama3.2:latest' }, { name: 'qwen2.5:7b' }]);
    await llm.checkModel();
    llm.setModel('qwen2.5:7b');
    await llm.checkModel();
    expect(await llm.listModels()).toEqual(['llama3.2:latest', 'qwen2.5:7b']);
  });

  it('checkModel names the model, the URL and the pull command when it is missing', async () => {
    const llm = await start([{ name: 'llama3.2' }], { model: 'llama3.2:3b' });
    const error = await llm.checkModel().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OllamaError);
    expect(error).toMatchObject({
      kind: 'model-missing',
      message: `model llama3.2:3b is not available on ${fake.url}`,
    });
    expect((error as OllamaError).hint).toContain('ollama pull llama3.2:3b');
  });

  it('reads tools and thinking from /api/show, once per model', async () => {
    const llm = await start(
      [
        { name: 'qwen3', capabilities: ['completion', 'tools', 'thinking'] },
        { name: 'gemma:2b', capabilities: ['completion'] },
      ],
      {
        model: 'qwen3',
      },
    );
    expect(await llm.capabilities()).toEqual({ tools: true, thinking: true });
    expect(await llm.capabilities()).toEqual({ tools: true, thinking: true });
    llm.setModel('gemma:2b');
    expect(await llm.capabilities()).toEqual({ tools: false, thinking: false });
    expect(fake.requests.filter((r) => r.path === '/api/show').map((r) => r.body)).toEqual([
      { model: 'qwen3' },
      { model: 'gemma:2b' },
    ]);
  });

  it('reads the template parser /api/show names, and leaves it out when there is none', async () => {
    const llm = await start([{ name: 'olmo-3', parser: 'olmo3' }, { name: 'llama3.2' }], { model: 'olmo-3' });
    expect(await llm.capabilities()).toEqual({ tools: true, thinking: false, parser: 'olmo3' });
    llm.setModel('llama3.2');
    expect(await llm.capabilities()).toEqual({ tools: true, thinking: false });
  });

  it('assumes nothing when an older server sends no capabilities', async () => {
    const llm = await start([{ name: 'llama3.2', capabilities: null }]);
    expect(await llm.capabilities()).toEqual({ tools: false, thinking: false });
  });

  it('reports a model unknown to /api/show as missing', async () => {
    const llm = await start([{ name: 'other' }]);
    await expect(llm.capabilities()).rejects.toMatchObject({ kind: 'model-missing' });
  });
});
