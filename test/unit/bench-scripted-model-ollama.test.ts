/**
 * The scripted model (bench/lib/model/) as Ollama: its NDJSON chat stream, tool calls and
 * metadata endpoints read back by the real `ollama` npm client, as mcp-chat's own reads them.
 */
import { gzipSync } from 'node:zlib';
import { Ollama, type Message } from 'ollama';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../bench/lib/model/server.js';
import { PROMPTS } from '../../bench/lib/model/script.js';

const MODEL = 'qwen3:8b';
const EVALUATE = {
  type: 'function',
  function: { name: 'calculator__evaluate', description: 'math', parameters: { type: 'object', properties: {} } },
};

let model: ScriptedModel;
let client: Ollama;

beforeEach(async () => {
  model = await ScriptedModel.start({ model: MODEL });
  client = new Ollama({ host: model.url });
});
afterEach(() => model.close());

async function streamed(messages: Message[]): Promise<{ text: string; calls: Message['tool_calls']; last: unknown }> {
  let text = '';
  let calls: Message['tool_calls'] = [];
  let last: unknown;
  for await (const part of await client.chat({ model: MODEL, messages, tools: [EVALUATE], stream: true })) {
    text += part.message.content;
    calls = [...(calls ?? []), ...(part.message.tool_calls ?? [])];
    last = part;
  }
  return { text, calls, last };
}

describe("the scripted model over Ollama's API", () => {
  it('calls the offered tool first, then answers with the result, ending each stream with the metrics chunk', async () => {
    const user: Message = { role: 'user', content: PROMPTS['one-call'].text };
    const first = await streamed([user]);
    expect(first.text).toBe('');
    expect(first.calls).toEqual([
      { id: 'call_1', function: { index: 0, name: 'calculator__evaluate', arguments: { expression: '1234 * 5678' } } },
    ]);
    expect(first.last).toMatchObject({ done: true, done_reason: 'stop' });
    const second = await streamed([
      user,
      { role: 'assistant', content: '', tool_calls: first.calls },
      { role: 'tool', content: '7006652', tool_name: 'calculator__evaluate' },
    ]);
    expect(second.text).toBe(PROMPTS['one-call'].answer);
    expect(second.last).toMatchObject({
      done: true,
      prompt_eval_count: expect.any(Number),
      eval_count: expect.any(Number),
    });
  });

  it('makes three calls in one reply for the three-call prompt', async () => {
    const { calls } = await streamed([{ role: 'user', content: PROMPTS['three-calls'].text }]);
    expect(calls?.map((call) => call.function.arguments)).toEqual(
      PROMPTS['three-calls'].calculations.map((calculation) => ({ expression: calculation.expression })),
    );
  });

  it('says the tool failed when the result is not the one expected', async () => {
    const user: Message = { role: 'user', content: PROMPTS['one-call'].text };
    const { text } = await streamed([user, { role: 'tool', content: 'Error: no' }]);
    expect(text).toBe('The calculator did not give 7006652.');
  });

  it('answers a request without the calculator (a title, say) plainly, as a side request', async () => {
    const reply = await client.chat({ model: MODEL, messages: [{ role: 'user', content: PROMPTS['one-call'].text }] });
    expect(reply.message.content).toBe('Benchmark turn');
    expect(model.requests.at(-1)).toMatchObject({ api: 'ollama', kind: 'side', replied: 'text' });
  });

  it('lists the model, shows it able to use tools, and reports a version', async () => {
    expect((await client.list()).models.map((entry) => entry.name)).toEqual([MODEL]);
    expect((await client.show({ model: MODEL })).capabilities).toEqual(['completion', 'tools']);
    expect((await client.version()).version).toMatch(/^\d+\.\d+\.\d+$/);
    expect((await client.ps()).models).toHaveLength(1);
  });

  it('records each request with its arrival and the bytes of its body as sent, compressed or not', async () => {
    const body = JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }], stream: false });
    const before = performance.now();
    await fetch(`${model.url}/api/chat`, { method: 'POST', body });
    const zipped = gzipSync(body);
    await fetch(`${model.url}/api/chat`, { method: 'POST', body: zipped, headers: { 'content-encoding': 'gzip' } });
    const [plain, compressed] = model.requests;
    expect(plain).toMatchObject({ path: '/api/chat', api: 'ollama', bytes: Buffer.byteLength(body) });
    expect(plain?.at).toBeGreaterThanOrEqual(before);
    expect(compressed).toMatchObject({ api: 'ollama', kind: 'side', bytes: zipped.length });
  });
});
