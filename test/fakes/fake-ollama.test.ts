import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FakeOllama, replies, startFakeOllama } from './fake-ollama.js';
import { CONDITION_WAIT } from '../helpers/condition-wait.js';

let fake: FakeOllama;

afterEach(async () => {
  await fake.close();
});

async function postChat(body: Record<string, unknown>): Promise<Response> {
  return fetch(`${fake.url}/api/chat`, { method: 'POST', body: JSON.stringify(body) });
}

const hello = { model: 'llama3.2', messages: [{ role: 'user', content: 'hi' }] };

function ndjson(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function isJson(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

describe('fake Ollama: /api/chat framing', () => {
  it('streams NDJSON: one object per newline-terminated line, token-sized content, metrics last', async () => {
    fake = await startFakeOllama({ replies: ['The quick brown fox'] });
    const response = await postChat(hello);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson');
    const text = await response.text();
    expect(text.endsWith('\n')).toBe(true);
    const lines = ndjson(text);
    expect(lines.slice(0, -1).map((line) => (line.message as { content: string }).content)).toEqual([
      'The',
      ' quick',
      ' brown',
      ' fox',
    ]);
    expect(lines.slice(0, -1).every((line) => line.done === false && line.model === 'llama3.2')).toBe(true);
    const final = lines[lines.length - 1];
    expect(final).toMatchObject({ done: true, done_reason: 'stop', message: { role: 'assistant', content: '' } });
    for (const field of [
      'total_duration',
      'load_duration',
      'prompt_eval_count',
      'prompt_eval_duration',
      'eval_count',
      'eval_duration',
    ]) {
      expect(typeof final?.[field]).toBe('number');
    }
    expect(typeof final?.created_at).toBe('string');
  });

  it('answers stream:false with one application/json object holding the whole message', async () => {
    fake = await startFakeOllama({ replies: [{ thinking: 'Let me see.', text: 'Four.' }] });
    const response = await postChat({ ...hello, stream: false });
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toMatchObject({
      message: { role: 'assistant', content: 'Four.', thinking: 'Let me see.' },
      done: true,
      done_reason: 'stop',
    });
  });

  it('streams thinking before content, and tool calls in their own chunk or in the done chunk', async () => {
    const call = { name: 'get_weather', arguments: { city: 'Tokyo' } };
    fake = await startFakeOllama({
      replies: [{ thinking: 'Hmm', text: 'Ok' }, { toolCalls: [call] }, { toolCalls: [call], toolCallsIn: 'done' }],
    });
    const thinking = ndjson(await (await postChat(hello)).text());
    expect(thinking.map((line) => line.message)).toEqual([
      { role: 'assistant', content: '', thinking: 'Hmm' },
      { role: 'assistant', content: 'Ok' },
      { role: 'assistant', content: '' },
    ]);
    const inChunk = ndjson(await (await postChat(hello)).text());
    expect(inChunk).toHaveLength(2);
    expect(inChunk[0]).toMatchObject({
      done: false,
      message: {
        tool_calls: [{ id: 'call_1', function: { index: 0, name: 'get_weather', arguments: { city: 'Tokyo' } } }],
      },
    });
    const inDone = ndjson(await (await postChat(hello)).text());
    expect(inDone).toHaveLength(1);
    expect(inDone[0]).toMatchObject({ done: true, message: { tool_calls: [{ function: { name: 'get_weather' } }] } });
  });

  it('sends a mid-stream error as one more line after a 200', async () => {
    fake = await startFakeOllama({
      replies: [{ text: 'Partial', streamError: 'an error was encountered while running the model' }],
    });
    const response = await postChat(hello);
    expect(response.status).toBe(200);
    const lines = ndjson(await response.text());
    expect(lines[lines.length - 1]).toEqual({ error: 'an error was encountered while running the model' });
    expect(lines.some((line) => line.done === true)).toBe(false);
  });

  it('reports done_reason length', async () => {
    fake = await startFakeOllama({ replies: [{ text: '{"action": "use_', doneReason: 'length' }] });
    const lines = ndjson(await (await postChat(hello)).text());
    expect(lines[lines.length - 1]).toMatchObject({ done: true, done_reason: 'length' });
  });

  it('drops the connection half-way', async () => {
    fake = await startFakeOllama({ replies: [{ text: 'one two three four', dropAfterChunks: 2 }] });
    const response = await postChat(hello);
    await expect(response.text()).rejects.toThrow();
  });

  it('garbles one line, or every line, so that it is not JSON', async () => {
    fake = await startFakeOllama({
      replies: [
        { text: 'one two', garble: 'line' },
        { text: 'one two', garble: 'all' },
      ],
    });
    const one = (await (await postChat(hello)).text()).split('\n').filter((line) => line !== '');
    expect(one.map(isJson)).toEqual([true, false, true, true]);
    const all = (await (await postChat(hello)).text()).split('\n').filter((line) => line !== '');
    expect(all.map(isJson)).toEqual([false, false, false]);
  });

  it('comes back on the port it was given after a close', async () => {
    const first = await startFakeOllama();
    const { port } = new URL(first.url);
    await first.close();
    fake = await startFakeOllama({ port: Number(port), replies: ['back'] });
    expect(fake.url).toBe(first.url);
    expect(ndjson(await (await postChat(hello)).text())[0]).toMatchObject({ message: { content: 'back' } });
  });

  it('replies computed from the request, and a loud 500 when the script is empty', async () => {
    fake = await startFakeOllama();
    fake.script((request) => `You said: ${request.messages[0]?.content ?? ''}`);
    const lines = ndjson(await (await postChat(hello)).text());
    expect(lines.map((line) => (line.message as { content: string }).content).join('')).toBe('You said: hi');
    const empty = await postChat(hello);
    expect(empty.status).toBe(500);
    expect(await empty.json()).toEqual({ error: expect.stringContaining('no scripted reply left') });
  });
});

describe('fake Ollama: errors and checks', () => {
  it('plays scripted error statuses with JSON bodies', async () => {
    fake = await startFakeOllama({ replies: [replies.modelNotFound('llama3.2'), replies.error(500, 'boom')] });
    const missing = await postChat(hello);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await missing.json()).toEqual({ error: "model 'llama3.2' not found" });
    const failed = await postChat(hello);
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ error: 'boom' });
  });

  it("applies Ollama's own checks without using up scripted replies", async () => {
    fake = await startFakeOllama({ models: [{ name: 'gemma:2b', capabilities: ['completion'] }], replies: ['kept'] });
    const unknown = await postChat({ ...hello, model: 'nope' });
    expect([unknown.status, await unknown.json()]).toEqual([404, { error: "model 'nope' not found" }]);
    const tools = await postChat({
      ...hello,
      model: 'gemma:2b',
      tools: [{ type: 'function', function: { name: 'x' } }],
    });
    expect([tools.status, await tools.json()]).toEqual([
      400,
      { error: 'registry.ollama.ai/library/gemma:2b does not support tools' },
    ]);
    const think = await postChat({ ...hello, model: 'gemma:2b', think: true });
    expect([think.status, await think.json()]).toEqual([400, { error: '"gemma:2b" does not support thinking' }]);
    const load = await postChat({ model: 'gemma:2b', messages: [] });
    expect(await load.json()).toMatchObject({ done: true, done_reason: 'load' });
    expect(fake.pendingReplies).toBe(1);
  });
});

describe('fake Ollama: other endpoints', () => {
  it('lists models, shows capabilities, reports its version and that it is running', async () => {
    fake = await startFakeOllama({
      version: '0.11.4',
      models: [
        { name: 'qwen3', family: 'qwen3', capabilities: ['completion', 'tools', 'thinking'] },
        { name: 'old', capabilities: null },
      ],
    });
    const tags = (await (await fetch(`${fake.url}/api/tags`)).json()) as { models: Array<Record<string, unknown>> };
    expect(tags.models.map((model) => model.name)).toEqual(['qwen3:latest', 'old:latest']);
    expect(tags.models[0]).toMatchObject({
      model: 'qwen3:latest',
      size: expect.any(Number),
      details: { family: 'qwen3', format: 'gguf' },
    });
    expect(tags.models[0]?.digest).toMatch(/^[0-9a-f]{64}$/);

    const show = await fetch(`${fake.url}/api/show`, { method: 'POST', body: JSON.stringify({ model: 'qwen3' }) });
    expect(await show.json()).toMatchObject({
      capabilities: ['completion', 'tools', 'thinking'],
      details: { family: 'qwen3' },
      model_info: { 'qwen3.context_length': 131072 },
      template: expect.stringContaining('.Tools'),
    });
    const old = (await (
      await fetch(`${fake.url}/api/show`, { method: 'POST', body: '{"model":"old"}' })
    ).json()) as Record<string, unknown>;
    expect('capabilities' in old).toBe(false);
    const missing = await fetch(`${fake.url}/api/show`, { method: 'POST', body: '{"model":"x"}' });
    expect([missing.status, await missing.json()]).toEqual([404, { error: "model 'x' not found" }]);

    expect(await (await fetch(`${fake.url}/api/version`)).json()).toEqual({ version: '0.11.4' });
    expect(await (await fetch(`${fake.url}/`)).text()).toBe('Ollama is running');
    const unknownRoute = await fetch(`${fake.url}/api/nothing`);
    expect([unknownRoute.status, await unknownRoute.text()]).toEqual([404, '404 page not found']);
  });

  it("lists in /api/ps the models a chat loaded, with the context each got (Ollama's default, num_ctx, the model's maximum)", async () => {
    fake = await startFakeOllama({ models: [{ name: 'llama3.2' }, { name: 'tiny', contextLength: 1024 }] });
    const ps = async (): Promise<unknown> => (await fetch(`${fake.url}/api/ps`)).json();
    expect(await ps()).toEqual({ models: [] });
    fake.script('one', 'two');
    await (await postChat(hello)).text();
    await (await postChat({ model: 'tiny', messages: hello.messages, options: { num_ctx: 8192 } })).text();
    expect(await ps()).toEqual({
      models: [
        expect.objectContaining({ name: 'llama3.2:latest', model: 'llama3.2:latest', context_length: 4096 }),
        expect.objectContaining({ name: 'tiny:latest', context_length: 1024 }),
      ],
    });
    const show = await fetch(`${fake.url}/api/show`, { method: 'POST', body: JSON.stringify({ model: 'tiny' }) });
    expect(((await show.json()) as { model_info: unknown }).model_info).toMatchObject({
      'general.architecture': 'llama',
      'llama.context_length': 1024,
    });
  });

  it('answers /api/ps as older servers do: without context_length, or not at all', async () => {
    fake = await startFakeOllama({ ps: 'no-context-length', replies: ['one'] });
    await (await postChat(hello)).text();
    const [entry] = ((await (await fetch(`${fake.url}/api/ps`)).json()) as { models: object[] }).models;
    expect(entry).toMatchObject({ name: 'llama3.2:latest', size_vram: expect.any(Number) });
    expect(entry).not.toHaveProperty('context_length');
    await fake.close();
    fake = await startFakeOllama({ ps: 'absent' });
    const absent = await fetch(`${fake.url}/api/ps`);
    expect([absent.status, await absent.text()]).toEqual([404, '404 page not found']);
  });

  it('records every request with method, path and parsed body', async () => {
    fake = await startFakeOllama({ replies: ['ok'] });
    await fetch(`${fake.url}/api/tags?x=1`);
    await (await postChat({ ...hello, options: { num_ctx: 4096 } })).text();
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/tags', 'POST /api/chat']);
    expect(fake.requests[0]?.body).toBeUndefined();
    expect(fake.chatRequests).toEqual([{ ...hello, options: { num_ctx: 4096 } }]);
    expect(await fake.waitForRequests(1)).toHaveLength(1);
  });

  it('holds a hanging stream open, notices the client leaving, and close() ends it', async () => {
    fake = await startFakeOllama({
      replies: [
        { text: 'Hello', hang: true },
        { text: 'late', firstChunkDelayMs: 60_000 },
      ],
    });
    const controller = new AbortController();
    const response = await postChat({ ...hello });
    const reader = response.body?.getReader();
    const first = await reader?.read();
    expect(new TextDecoder().decode(first?.value)).toContain('Hello');
    const slow = fetch(`${fake.url}/api/chat`, {
      method: 'POST',
      body: JSON.stringify(hello),
      signal: controller.signal,
    });
    await fake.waitForRequests(2);
    controller.abort();
    await expect(slow).rejects.toThrow();
    await vi.waitFor(() => expect(fake.requests[1]?.clientAborted).toBe(true), CONDITION_WAIT);
    await fake.close();
    await expect(reader?.read()).rejects.toThrow();
  });
});
