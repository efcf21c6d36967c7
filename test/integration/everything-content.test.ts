/**
 * Images and structured results from the reference peer, server-everything, over stdio, through
 * whole turns on the fake Ollama: `get-tiny-image` is one line on screen and reaches a vision
 * model in the tool message's `images` (a note for a model without vision, and no `images`);
 * `get-structured-content` gives the model its JSON. A server that breaks its own `outputSchema`
 * gives a clear error result naming the tool and what did not match.
 */
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ToolMode, TurnEvent } from '../../src/vocabulary/types.js';
import { McpHost } from '../../src/mcp/host.js';
import { createOllamaClient } from '../../src/ollama/client.js';
import { formatToolLine } from '../../src/present/tool-line.js';
import { ChatSession } from '../../src/session/chat-session.js';
import { silentLogger } from '../../src/shared/log.js';
import { type FakeOllama, type FakeReply, type FakeWireMessage, startFakeOllama } from '../fakes/fake-ollama.js';
import { REPO_ROOT, stdioServer } from '../helpers/server-configs.js';
import { testRuntime } from '../helpers/test-session.js';

const EVERYTHING = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const OUTPUT_SCHEMA = path.join(REPO_ROOT, 'test/fixtures/servers/output-schema-server.mjs');
/** The image `get-tiny-image` returns (a 20×20 PNG), as the server sends it. */
const TINY_IMAGE: string = (
  (await import(
    path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/tools/get-tiny-image.js')
  )) as { MCP_TINY_IMAGE: string }
).MCP_TINY_IMAGE;
const IMAGE_LINE = '[image png 20×20, 4.0 kB]';
const NOTE = '[The tool returned an image (png 20×20, 4.0 kB) that this model cannot see.]';

let host: McpHost;
/** The fake Ollama of the test's turn. */
let ollama: FakeOllama;
const fakes: FakeOllama[] = [];

beforeAll(async () => {
  host = new McpHost([stdioServer('everything', [EVERYTHING, 'stdio']), stdioServer('schema', [OUTPUT_SCHEMA])], {
    log: silentLogger,
  });
  await host.start();
  expect(host.statuses().map((status) => status.state)).toEqual(['ready', 'ready']);
}, 30_000);
afterAll(() => host.close());
afterEach(() => Promise.all(fakes.splice(0).map((fake) => fake.close())));

/** One whole turn on the fake Ollama, its model having `capabilities` and giving `replies`; calls are not asked about. */
async function turn(capabilities: string[], replies: FakeReply[], toolMode: ToolMode = 'auto'): Promise<TurnEvent[]> {
  ollama = await startFakeOllama({ models: [{ name: 'llava', capabilities }], replies });
  fakes.push(ollama);
  const runtime = testRuntime({ baseUrl: ollama.url, model: 'llava', toolMode });
  const session = new ChatSession(runtime, host, createOllamaClient(runtime.config.ollama, silentLogger), {
    approvalRule: () => false,
  });
  const events: TurnEvent[] = [];
  for await (const event of session.runTurn('What does the tool give?')) events.push(event);
  expect(events.at(-1)).toMatchObject({ type: 'final' });
  return events;
}

const VISION = ['completion', 'tools', 'vision'];
const NO_VISION = ['completion', 'tools'];
const nativeCall = (name: string, args: Record<string, unknown> = {}): FakeReply => ({
  toolCalls: [{ name, arguments: args }],
});
/** The message that carried the result back, in the request after the call. */
const resultOnWire = (role: 'tool' | 'user' = 'tool'): FakeWireMessage | undefined =>
  ollama.chatRequests[1]?.messages.findLast((message) => message.role === role);

describe('images from server-everything', () => {
  it('get-tiny-image: one line on screen, and the image kept for a model that can see', async () => {
    const call = { server: 'everything', tool: 'get-tiny-image', arguments: {} };
    const result = await host.callTool(call);
    expect(result.forModel).toBe(`Here's the image you requested:\n${IMAGE_LINE}\nThe image above is the MCP logo.`);
    expect(result.images).toEqual([{ data: TINY_IMAGE, mimeType: 'image/png', label: 'png 20×20, 4.0 kB' }]);
    const line = formatToolLine(call, result);
    expect(line).not.toContain('\n');
    expect(line).toContain(IMAGE_LINE);
    expect(line).not.toContain(TINY_IMAGE.slice(0, 40));
  });

  it('a model with vision gets the image in the next request’s tool message', async () => {
    await turn(VISION, [nativeCall('everything__get-tiny-image'), 'It is the MCP logo.']);
    const message = resultOnWire();
    expect(message?.images).toEqual([TINY_IMAGE]);
    expect(message?.content).toContain(IMAGE_LINE);
    expect(message?.content).not.toContain('cannot see');
  });

  it('in text tool mode the image rides on the labelled result message', async () => {
    const call = JSON.stringify({ action: 'use_tool', server: 'everything', tool: 'get-tiny-image', arguments: {} });
    await turn(VISION, [call, 'It is the MCP logo.'], 'json');
    const message = resultOnWire('user');
    expect(message?.content).toMatch(/^\[Tool result\] everything\.get-tiny-image/);
    expect(message?.images).toEqual([TINY_IMAGE]);
  });

  it('a model without vision gets a note instead, and no `images` (Ollama would refuse the request)', async () => {
    await turn(NO_VISION, [nativeCall('everything__get-tiny-image'), 'I cannot see it.']);
    const message = resultOnWire();
    expect(message).not.toHaveProperty('images');
    expect(message?.content).toContain(IMAGE_LINE);
    expect(message?.content).toContain(NOTE);
    expect(ollama.chatRequests.every((request) => request.messages.every((m) => m.images === undefined))).toBe(true);
  });
});

describe('structured results', () => {
  it('get-structured-content: the model gets the structured JSON', async () => {
    const weather = { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 };
    await turn(NO_VISION, [nativeCall('everything__get-structured-content', { location: 'Chicago' }), 'Drizzle.']);
    expect(JSON.parse(resultOnWire()?.content ?? '')).toEqual(weather);
  });

  it('structured content alone (no text block) reaches the model as JSON', async () => {
    const result = await host.callTool({ server: 'schema', tool: 'honest', arguments: {} });
    expect(result).toMatchObject({ isError: false, forModel: '{"temperature":21}' });
  });

  it('structured content that breaks the tool’s outputSchema is an error naming the tool and what did not match', async () => {
    const call = { server: 'schema', tool: 'weather', arguments: {} };
    const result = await host.callTool(call);
    expect(result).toMatchObject({
      isError: true,
      forModel:
        'schema.weather returned structured content that does not match its output schema (data/temperature must be number), so its result was not used.',
    });
    expect(formatToolLine(call, result)).toMatch(/^✗ schema\.weather\(\) \d+ ms → schema\.weather returned structured/);
    expect(result.forModel).not.toMatch(/\bat .*\.js:\d+/);
  });

  it('no structured content from a tool with an outputSchema is an error too', async () => {
    const result = await host.callTool({ server: 'schema', tool: 'silent', arguments: {} });
    expect(result).toMatchObject({
      isError: true,
      forModel: 'schema.silent has an output schema but returned no structured content, so its result was not used.',
    });
  });

  it('the model reads the mismatch as a failed call, and the turn goes on', async () => {
    const events = await turn(NO_VISION, [nativeCall('schema__weather'), 'The weather tool is broken.']);
    expect(events.find((event) => event.type === 'tool-result')).toMatchObject({ result: { isError: true } });
    expect(resultOnWire()?.content).toContain('does not match its output schema (data/temperature must be number)');
  });
});
