import { getEventListeners } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LlmChunk, LlmRequest } from '../../src/vocabulary/types.js';
import type { OllamaSettings } from '../../src/config/types.js';
import { OllamaError } from '../../src/shared/errors.js';
import { silentLogger } from '../../src/shared/log.js';
import { createOllamaClient, type OllamaClient } from '../../src/ollama/client.js';
import { type FakeModel, type FakeOllama, replies, startFakeOllama } from '../fakes/fake-ollama.js';
import { CONDITION_WAIT } from '../helpers/condition-wait.js';

let fake: FakeOllama | undefined;

afterEach(async () => {
  vi.restoreAllMocks();
  await fake?.close();
  fake = undefined;
});

function settingsFor(url: string, overrides: Partial<OllamaSettings> = {}): OllamaSettings {
  return {
    baseUrl: url,
    model: 'llama3.2',
    timeoutMs: 10_000,
    numCtx: 8192,
    toolMode: 'auto',
    options: {},
    ...overrides,
  };
}

async function start(
  models?: FakeModel[],
  overrides: Partial<OllamaSettings> = {},
): Promise<{ llm: OllamaClient; ollama: FakeOllama }> {
  const ollama = await startFakeOllama(models ? { models } : {});
  fake = ollama;
  return { llm: createOllamaClient(settingsFor(ollama.url, overrides), silentLogger), ollama };
}

const ask = (extra: Partial<LlmRequest> = {}): LlmRequest => ({
  messages: [{ role: 'user', content: 'hi' }],
  ...extra,
});

/** Runs a chat to its end; returns what streamed and what it threw. */
async function run(llm: OllamaClient, request: LlmRequest = ask()): Promise<{ chunks: LlmChunk[]; error: unknown }> {
  const chunks: LlmChunk[] = [];
  try {
    for await (const chunk of llm.chat(request)) chunks.push(chunk);
  } catch (error) {
    return { chunks, error };
  }
  return { chunks, error: undefined };
}

async function closedPortUrl(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

const rawServers: http.Server[] = [];

afterEach(async () => {
  for (const server of rawServers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A chat endpoint that answers 200 with `writes` as they are, then ends the response. */
async function rawNdjsonServer(writes: string[]): Promise<string> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
    for (const text of writes.slice(0, -1)) res.write(text);
    res.end(writes.at(-1));
  });
  rawServers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
}

const tool = { name: 'f', description: 'f', parameters: { type: 'object' as const } };

describe('OllamaClient: HTTP errors', () => {
  it('404 on chat → model-missing with the pull hint, not retried', async () => {
    const { llm, ollama } = await start();
    ollama.script(replies.modelNotFound('llama3.2'));
    const { error } = await run(llm);
    expect(error).toBeInstanceOf(OllamaError);
    expect(error).toMatchObject({ kind: 'model-missing', message: `model llama3.2 is not available on ${ollama.url}` });
    expect((error as OllamaError).hint).toContain('ollama pull llama3.2');
    expect((error as OllamaError).hint).toContain('mcp-chat pull llama3.2');
    expect(ollama.chatRequests).toHaveLength(1);
  });

  it('400 "does not support tools" → no-tool-support, and capabilities() then says no tools', async () => {
    const { llm, ollama } = await start([{ name: 'gemma:2b', capabilities: ['completion', 'tools'] }], {
      model: 'gemma:2b',
    });
    expect((await llm.capabilities()).tools).toBe(true);
    ollama.script(replies.noToolSupport('gemma:2b'));
    const { error } = await run(llm, ask({ tools: [tool] }));
    expect(error).toMatchObject({ kind: 'no-tool-support' });
    expect((error as Error).message).toContain('does not support tools');
    expect(await llm.capabilities()).toEqual({ tools: false, thinking: false });
    expect(ollama.chatRequests).toHaveLength(1);
  });

  it('other statuses → request-failed with the status and the server text', async () => {
    const { llm, ollama } = await start();
    ollama.script(replies.error(500, 'unexpected end of JSON input'));
    const { error } = await run(llm);
    expect(error).toMatchObject({ kind: 'request-failed' });
    expect((error as Error).message).toMatch(/500.*unexpected end of JSON input/);
    expect(ollama.chatRequests).toHaveLength(1);
  });

  it('a redirect is not followed: request-failed naming the status, the target never asked', async () => {
    const { ollama } = await start();
    const server = http.createServer((_req, res) => res.writeHead(301, { Location: ollama.url }).end());
    rawServers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    const llm = createOllamaClient(settingsFor(url), silentLogger);
    const { error } = await run(llm);
    expect(error).toMatchObject({
      kind: 'request-failed',
      message: `Ollama at ${url} answered HTTP 301: 301 Moved Permanently`,
    });
    await expect(llm.listModels()).rejects.toMatchObject({ kind: 'request-failed' });
    expect(ollama.requests).toHaveLength(0);
  });

  it('a non-Ollama 404 with a text body is no missing model, and nothing is printed', async () => {
    const { ollama } = await start();
    const printed = [vi.spyOn(console, 'log'), vi.spyOn(console, 'warn'), vi.spyOn(console, 'error')];
    const llm = createOllamaClient(settingsFor(`${ollama.url}/not-ollama`), silentLogger);
    const { error } = await run(llm);
    expect(error).toMatchObject({ kind: 'request-failed' });
    expect((error as Error).message).toContain('404 page not found');
    await expect(llm.checkAvailable()).rejects.toMatchObject({ kind: 'unreachable' });
    for (const spy of printed) expect(spy).not.toHaveBeenCalled();
  });
});

describe('OllamaClient: failures mid-stream', () => {
  it('an {"error"} line after a 200 → request-failed with the message, after the chunks before it', async () => {
    const { llm, ollama } = await start();
    ollama.script({ text: 'Partial answer', streamError: 'an error was encountered while running the model' });
    const { chunks, error } = await run(llm);
    expect(chunks.map((chunk) => chunk.type)).toEqual(['content', 'content']);
    expect(error).toMatchObject({ kind: 'request-failed' });
    expect((error as Error).message).toContain('an error was encountered while running the model');
  });

  it('a stream dropped half-way → request-failed, never retried once chunks were yielded', async () => {
    const { llm, ollama } = await start();
    ollama.script({ text: 'one two three four five', dropAfterChunks: 2 }, 'not to be used');
    const { chunks, error } = await run(llm);
    expect(chunks).toEqual([
      { type: 'content', text: 'one' },
      { type: 'content', text: ' two' },
    ]);
    expect(error).toMatchObject({ kind: 'request-failed' });
    expect((error as Error).message).toContain(ollama.url);
    expect(ollama.chatRequests).toHaveLength(1);
  });

  it('skips a line that is not a JSON object without printing, and keeps streaming', async () => {
    const printed = [vi.spyOn(console, 'log'), vi.spyOn(console, 'warn'), vi.spyOn(console, 'error')];
    // Not the fake: it only speaks valid protocol. This server sends garbled lines, and ends
    // its last line without a newline.
    const url = await rawNdjsonServer([
      '{"model":"llama3.2","message":{"role":"assistant","content":"Hel"},"done":false}\n',
      '<html>proxy hiccup</html>\n42\n["array"]\n',
      '{"model":"llama3.2","message":{"role":"assistant","content":"lo"},"done":false}\n{"model":"llama3.2","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}',
    ]);
    const { chunks, error } = await run(createOllamaClient(settingsFor(url), silentLogger));
    expect(error).toBeUndefined();
    expect(chunks).toEqual([
      { type: 'content', text: 'Hel' },
      { type: 'content', text: 'lo' },
      { type: 'done', doneReason: 'stop' },
    ]);
    for (const spy of printed) expect(spy).not.toHaveBeenCalled();
  });

  it('a stream that ends cleanly before its done line → request-failed saying so, after the chunks before it', async () => {
    const url = await rawNdjsonServer([
      '{"model":"llama3.2","message":{"role":"assistant","content":"Hel"},"done":false}\n',
    ]);
    const { chunks, error } = await run(createOllamaClient(settingsFor(url), silentLogger));
    expect(chunks).toEqual([{ type: 'content', text: 'Hel' }]);
    expect(error).toMatchObject({ kind: 'request-failed' });
    expect((error as Error).message).toContain('the stream ended before the reply was complete');
  });
});

describe('OllamaClient: connection failures and retries', () => {
  it('a closed port → unreachable naming the URL, with the start hint, after retrying', async () => {
    const url = await closedPortUrl();
    const llm = createOllamaClient(settingsFor(url), silentLogger);
    const { error } = await run(llm);
    expect(error).toBeInstanceOf(OllamaError);
    expect(error).toMatchObject({
      kind: 'unreachable',
      message: `Ollama is not reachable at ${url} (connection refused)`,
    });
    expect((error as OllamaError).hint).toBe(
      'Start it with `ollama serve` (or open the Ollama app), or point --host / OLLAMA_HOST at it',
    );
    await expect(llm.checkAvailable()).rejects.toMatchObject({
      kind: 'unreachable',
      message: expect.stringContaining(url),
    });
  });

  it('a connection reset before the reply is retried, and the retry succeeds', async () => {
    const { llm, ollama } = await start();
    ollama.script({ dropAfterChunks: 0 }, { dropAfterChunks: 0 }, 'third time lucky');
    const { chunks, error } = await run(llm);
    expect(error).toBeUndefined();
    expect(chunks.map((chunk) => (chunk.type === 'content' ? chunk.text : '')).join('')).toBe('third time lucky');
    expect(ollama.chatRequests).toHaveLength(3);
  });

  it('gives up after 3 attempts', async () => {
    const { llm, ollama } = await start();
    ollama.script({ dropAfterChunks: 0 }, { dropAfterChunks: 0 }, { dropAfterChunks: 0 }, 'never reached');
    const { error } = await run(llm);
    expect(error).toMatchObject({ kind: 'unreachable', message: expect.stringContaining(ollama.url) });
    expect(ollama.chatRequests).toHaveLength(3);
  });
});

describe('OllamaClient: cancel and idle timeout', () => {
  it('abort mid-stream ends at once with an AbortError and closes the connection', async () => {
    const { llm, ollama } = await start();
    ollama.script({ text: 'Hello', hang: true });
    const controller = new AbortController();
    const iterator = llm.chat(ask({ signal: controller.signal }))[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ done: false, value: { type: 'content', text: 'Hello' } });
    const pending = iterator.next();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await vi.waitFor(() => expect(ollama.requests[0]?.clientAborted).toBe(true), CONDITION_WAIT);
  });

  it('abort while the model is still loading (before the first byte) is an AbortError too', async () => {
    const { llm, ollama } = await start();
    ollama.script({ text: 'late', firstChunkDelayMs: 60_000 });
    const controller = new AbortController();
    const result = run(llm, ask({ signal: controller.signal }));
    await ollama.waitForRequests(1);
    controller.abort();
    const { chunks, error } = await result;
    expect(chunks).toEqual([]);
    expect(error).toMatchObject({ name: 'AbortError' });
  });

  it('an already aborted signal sends nothing', async () => {
    const { llm, ollama } = await start();
    const { error } = await run(llm, ask({ signal: AbortSignal.abort() }));
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(ollama.requests).toHaveLength(0);
  });

  it('times out when the first byte takes longer than timeoutMs', async () => {
    const { llm, ollama } = await start(undefined, { timeoutMs: 150 });
    ollama.script({ text: 'late', firstChunkDelayMs: 60_000 });
    const { error } = await run(llm);
    expect(error).toMatchObject({ kind: 'request-failed', message: expect.stringContaining('sent nothing for 0.2 s') });
    expect((error as OllamaError).hint).toContain('ollama.timeout');
    await vi.waitFor(() => expect(ollama.requests[0]?.clientAborted).toBe(true), CONDITION_WAIT);
  });

  it('times out when the stream stalls between chunks', async () => {
    const { llm, ollama } = await start(undefined, { timeoutMs: 150 });
    ollama.script({ text: 'Hello', hang: true });
    const { chunks, error } = await run(llm);
    expect(chunks).toEqual([{ type: 'content', text: 'Hello' }]);
    expect(error).toMatchObject({ kind: 'request-failed', message: expect.stringContaining('sent nothing') });
  });

  it('is an idle timeout, not a cap: a long answer with short gaps completes', async () => {
    const { llm, ollama } = await start(undefined, { timeoutMs: 250 });
    ollama.script({ text: 'a b c d e f', chunkDelayMs: 60 });
    const { chunks, error } = await run(llm);
    expect(error).toBeUndefined();
    expect(chunks.filter((chunk) => chunk.type === 'content')).toHaveLength(6);
  });

  it('listens to the cancel signal once for a whole reply, and leaves no listener on it after', async () => {
    const { llm, ollama } = await start();
    ollama.script({ text: 'a b c d e f' });
    const controller = new AbortController();
    const listening: number[] = [];
    for await (const chunk of llm.chat(ask({ signal: controller.signal }))) {
      if (chunk.type === 'content') listening.push(getEventListeners(controller.signal, 'abort').length);
    }
    expect(listening).toEqual([1, 1, 1, 1, 1, 1]);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('a consumer that stops early releases the connection', async () => {
    const { llm, ollama } = await start();
    ollama.script({ text: 'one two three', hang: true });
    for await (const chunk of llm.chat(ask())) {
      expect(chunk).toEqual({ type: 'content', text: 'one' });
      break;
    }
    await vi.waitFor(() => expect(ollama.requests[0]?.clientAborted).toBe(true), CONDITION_WAIT);
  });
});
