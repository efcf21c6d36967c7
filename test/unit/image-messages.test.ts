/**
 * A result's images on their way to the model: on the message that carries the result (native and
 * text modes), in Ollama's `images` for a model with `vision`, a note for one without (Ollama would
 * refuse the request), never megabytes of base64 in the log, and never cut off the tool line.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { resultMessage } from '../../src/engine/tool-execution.js';
import type { ChatMessage, ToolImage, ToolResult } from '../../src/vocabulary/types.js';
import { createOllamaClient } from '../../src/ollama/client.js';
import { buildChatBody, loggableBody, readCapabilities } from '../../src/ollama/wire.js';
import { resultSummary } from '../../src/present/tool-line.js';
import { silentLogger } from '../../src/shared/log.js';
import { type FakeOllama, startFakeOllama } from '../fakes/fake-ollama.js';

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAMAAAACAQMAAACnuvRZAAAAA1BMVEX/AAAZ4gk3AAAADElEQVQI12NgYGAAAAAEAAEnNCcKAAAAAElFTkSuQmCC';
const IMAGE: ToolImage = { data: PNG, mimeType: 'image/png', label: 'png 3×2, 84 B' };
const NOTE = '[The tool returned an image (png 3×2, 84 B) that this model cannot see.]';
const call = { server: 'everything', tool: 'get-tiny-image', arguments: {} };
const result: ToolResult = { isError: false, forModel: 'Here:\n[image png 3×2, 84 B]', durationMs: 3, images: [IMAGE] };
const settings = {
  baseUrl: 'http://127.0.0.1:1',
  model: 'llava',
  timeoutMs: 5_000,
  numCtx: 8192,
  toolMode: 'auto' as const,
  options: {},
};

const bodyFor = (message: ChatMessage, vision: boolean) =>
  buildChatBody(settings, { messages: [{ role: 'user', content: 'show me' }, message] }, vision);

describe('a result’s images on their way to the model', () => {
  it('ride on the message that carries the result, native and text mode alike', () => {
    expect(resultMessage(call, result, true)).toMatchObject({ role: 'tool', images: [IMAGE] });
    expect(resultMessage(call, result, false)).toMatchObject({ role: 'user', toolResult: true, images: [IMAGE] });
    expect(resultMessage(call, { ...result, images: undefined }, true)).not.toHaveProperty('images');
  });

  it('a model with vision gets them in `images`, as bytes (the package encodes them; it reads a string as a path)', () => {
    for (const native of [true, false]) {
      const wire = bodyFor(resultMessage(call, result, native), true).messages?.[1];
      expect(wire?.images).toEqual([Buffer.from(PNG, 'base64')]);
      expect(wire?.content).not.toContain('cannot see');
    }
  });

  it('a model without vision gets a note in their place, and no `images`', () => {
    for (const native of [true, false]) {
      const wire = bodyFor(resultMessage(call, result, native), false).messages?.[1];
      expect(wire).not.toHaveProperty('images');
      expect(wire?.content.endsWith(`\n${NOTE}`)).toBe(true);
    }
  });

  it('the log keeps each image as its size, not its data', () => {
    const body = bodyFor(resultMessage(call, result, true), true);
    expect(loggableBody(body).messages?.[1]?.images).toEqual(['<image, 84 bytes>']);
    expect(body.messages?.[1]?.images).toEqual([Buffer.from(PNG, 'base64')]);
    const plain = buildChatBody(settings, { messages: [{ role: 'user', content: 'hi' }] });
    expect(loggableBody(plain)).toBe(plain);
  });

  it('`vision` is read from /api/show', () => {
    const show = (capabilities: string[]) => readCapabilities({ capabilities } as never);
    expect(show(['completion', 'vision'])).toEqual({ tools: false, thinking: false, vision: true });
    expect(show(['completion', 'tools']).vision).toBeUndefined();
  });

  it('the tool line shows an image’s line even when a long text comes before it', () => {
    const long = { ...result, forModel: `${'word '.repeat(60)}\n[image png 3×2, 84 B]` };
    expect(resultSummary(long).startsWith('[image png 3×2, 84 B] word word')).toBe(true);
    expect(resultSummary(result)).toBe('Here: [image png 3×2, 84 B]');
  });
});

describe('the Ollama client with images in the history', () => {
  let fake: FakeOllama;
  afterEach(() => fake.close());

  const history: ChatMessage[] = [
    { role: 'user', content: 'show me' },
    { role: 'assistant', content: '', toolCalls: [{ name: 'everything__get-tiny-image', arguments: {} }] },
    resultMessage(call, result, true),
  ];

  it.each([
    ['with vision', ['completion', 'tools', 'vision'], [PNG]],
    ['without vision', ['completion', 'tools'], undefined],
  ])('a model %s: asks /api/show once, and sends what the model can take', async (_name, capabilities, images) => {
    fake = await startFakeOllama({ models: [{ name: 'llava', capabilities }] });
    const llm = createOllamaClient({ ...settings, baseUrl: fake.url }, silentLogger);
    fake.script('A tiny logo.', 'Still a logo.');
    for (let round = 0; round < 2; round++) {
      for await (const chunk of llm.chat({ messages: history })) void chunk;
    }
    expect(fake.chatRequests).toHaveLength(2);
    const tool = fake.chatRequests[0]?.messages[2];
    expect(tool?.images).toEqual(images);
    if (!images) expect(tool?.content).toContain(NOTE);
    expect(fake.requests.filter((request) => request.path === '/api/show')).toHaveLength(1);
  });

  it('a request without images never asks /api/show', async () => {
    fake = await startFakeOllama({ models: [{ name: 'llava' }] });
    const llm = createOllamaClient({ ...settings, baseUrl: fake.url }, silentLogger);
    fake.script('Hello.');
    for await (const chunk of llm.chat({ messages: [{ role: 'user', content: 'hi' }] })) void chunk;
    expect(fake.requests.map((request) => request.path)).toEqual(['/api/chat']);
  });
});
