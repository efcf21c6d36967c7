/**
 * The scripted model (bench/lib/model/) as an OpenAI-compatible server: Chat Completions and
 * Responses streams read back with a plain SSE parser, as opencode and codex read them: deltas
 * joined into the text and the tool calls, `[DONE]` or `response.completed` last.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../bench/lib/model/server.js';
import { PROMPTS } from '../../bench/lib/model/script.js';

const MODEL = 'qwen3:8b';

interface SseEvent {
  event?: string;
  data: string;
}

/** Server-sent events as the spec frames them: blank-line separated, `event:` and `data:` fields. */
function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const fields = block
        .split('\n')
        .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trimStart()]);
      const event = fields.find(([name]) => name === 'event')?.[1];
      const data = fields
        .filter(([name]) => name === 'data')
        .map(([, value]) => value)
        .join('\n');
      return event === undefined ? { data } : { event, data };
    });
}

let model: ScriptedModel;
beforeEach(async () => {
  model = await ScriptedModel.start({ model: MODEL });
});
afterEach(() => model.close());

async function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${model.url}${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
}

type Chunk = {
  choices: Array<{
    delta: {
      content?: string;
      tool_calls?: Array<{ index: number; id?: string; function: { name?: string; arguments?: string } }>;
    };
    finish_reason: string | null;
  }>;
  usage?: unknown;
};

describe('the scripted model over Chat Completions', () => {
  const tools = [{ type: 'function', function: { name: 'calculator_evaluate', parameters: { type: 'object' } } }];

  it('streams three tool calls whose arguments join across deltas, then finish_reason tool_calls, usage and [DONE]', async () => {
    const response = await post('/v1/chat/completions', {
      model: MODEL,
      stream: true,
      stream_options: { include_usage: true },
      tools,
      messages: [{ role: 'user', content: [{ type: 'text', text: PROMPTS['three-calls'].text }] }],
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = parseSse(await response.text());
    expect(events.at(-1)?.data).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.data) as Chunk);
    const calls = new Map<number, { name: string; args: string }>();
    for (const delta of chunks.flatMap((chunk) => chunk.choices.flatMap((choice) => choice.delta.tool_calls ?? []))) {
      const call = calls.get(delta.index) ?? { name: '', args: '' };
      calls.set(delta.index, {
        name: call.name + (delta.function.name ?? ''),
        args: call.args + (delta.function.arguments ?? ''),
      });
    }
    expect([...calls.values()].map((call) => [call.name, JSON.parse(call.args)])).toEqual(
      PROMPTS['three-calls'].calculations.map((calculation) => [
        'calculator_evaluate',
        { expression: calculation.expression },
      ]),
    );
    expect(chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.finish_reason)).filter(Boolean)).toEqual([
      'tool_calls',
    ]);
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: expect.any(Number) } });
  });

  it('answers after the tool results, streamed as content deltas and finish_reason stop', async () => {
    const results = PROMPTS['three-calls'].calculations.map((calculation, index) => ({
      role: 'tool',
      tool_call_id: `call_${index + 1}`,
      content: calculation.result,
    }));
    const response = await post('/v1/chat/completions', {
      model: MODEL,
      stream: true,
      tools,
      messages: [
        { role: 'user', content: PROMPTS['three-calls'].text },
        { role: 'assistant', content: null },
        ...results,
      ],
    });
    const chunks = parseSse(await response.text())
      .slice(0, -1)
      .map((event) => JSON.parse(event.data) as Chunk);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe(PROMPTS['three-calls'].answer);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.some((chunk) => 'usage' in chunk)).toBe(false);
  });

  it('replies whole without stream: true, arguments as a JSON string', async () => {
    const response = await post('/v1/chat/completions', {
      model: MODEL,
      tools,
      messages: [{ role: 'user', content: PROMPTS['one-call'].text }],
    });
    const body = (await response.json()) as {
      choices: Array<{ message: { tool_calls: Array<{ function: { arguments: string } }> }; finish_reason: string }>;
    };
    expect(body.choices[0]?.finish_reason).toBe('tool_calls');
    expect(JSON.parse(body.choices[0]?.message.tool_calls[0]?.function.arguments ?? '')).toEqual({
      expression: '1234 * 5678',
    });
  });

  it('lists the model at /v1/models', async () => {
    const body = (await (await fetch(`${model.url}/v1/models`)).json()) as { data: Array<{ id: string }> };
    expect(body.data.map((entry) => entry.id)).toEqual([MODEL]);
  });
});

describe('the scripted model over the Responses API', () => {
  const tools = [{ type: 'namespace', name: 'mcp__calculator', tools: [{ type: 'function', name: 'evaluate' }] }];
  const user = { type: 'message', role: 'user', content: [{ type: 'input_text', text: PROMPTS['one-call'].text }] };

  it('streams a namespaced function call as typed events, response.completed last', async () => {
    const response = await post('/v1/responses', { model: MODEL, stream: true, tools, input: [user] });
    const events = parseSse(await response.text());
    for (const event of events) expect(JSON.parse(event.data).type).toBe(event.event);
    expect(events.map((event) => event.event)).toEqual([
      'response.created',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const done = JSON.parse(events[4]?.data ?? '{}') as { item: Record<string, string> };
    expect(done.item).toMatchObject({
      type: 'function_call',
      name: 'evaluate',
      namespace: 'mcp__calculator',
      call_id: 'call_1',
    });
    expect(JSON.parse(done.item.arguments ?? '')).toEqual({ expression: '1234 * 5678' });
  });

  it('reads function_call_output items after the user message and streams the answer as output_text deltas', async () => {
    const output = {
      type: 'function_call_output',
      call_id: 'call_1',
      output: [
        { type: 'input_text', text: 'Wall time: 0.1 s' },
        { type: 'input_text', text: '7006652' },
      ],
    };
    const response = await post('/v1/responses', { model: MODEL, stream: true, tools, input: [user, output] });
    const events = parseSse(await response.text()).map(
      (event) => JSON.parse(event.data) as { type: string; delta?: string; response?: { status: string } },
    );
    expect(
      events
        .filter((event) => event.type === 'response.output_text.delta')
        .map((event) => event.delta)
        .join(''),
    ).toBe(PROMPTS['one-call'].answer);
    expect(events.at(-1)).toMatchObject({ type: 'response.completed', response: { status: 'completed' } });
    expect(model.requests.at(-1)).toMatchObject({
      api: 'responses',
      kind: 'one-call',
      toolResults: ['Wall time: 0.1 s\n7006652'],
    });
  });
});
