/**
 * The chatbot with a reasoning model and with a required answer form: `think` on requests as
 * the model allows, reasoning kept out of the history, and `format` on the answer's request only.
 */
import { describe, expect, it } from 'vitest';
import type { JsonSchema, LlmCapabilities, ThinkSetting, ToolSpec, TurnEvent } from '../../src/vocabulary/types.js';
import { ChatSession } from '../../src/session/chat-session.js';
import { FakeToolHost } from '../fakes/fake-tool-host.js';
import { ScriptedLlm, type ScriptedReply } from '../fakes/scripted-llm.js';
import { testRuntime } from '../helpers/test-session.js';
import { buildChatBody } from '../../src/ollama/wire.js';

const call = (expression: string): string =>
  JSON.stringify({ action: 'use_tool', server: 'calculator', tool: 'evaluate', arguments: { expression } });

class NoToolsHost extends FakeToolHost {
  override listTools(): ToolSpec[] {
    return [];
  }
}

interface Setup {
  think?: ThinkSetting;
  caps?: LlmCapabilities;
  answerFormat?: JsonSchema;
  host?: FakeToolHost;
}

function setup(replies: ScriptedReply[], options: Setup = {}) {
  const llm = new ScriptedLlm(replies, options.caps ?? { tools: false, thinking: true });
  const runtime = testRuntime(options.think === undefined ? {} : { think: options.think });
  const session = new ChatSession(runtime, options.host ?? new FakeToolHost(), llm, {
    ...(options.answerFormat ? { answerFormat: options.answerFormat } : {}),
  });
  const turn = async (text: string): Promise<TurnEvent[]> => {
    const events: TurnEvent[] = [];
    for await (const event of session.runTurn(text)) events.push(event);
    return events;
  };
  return { llm, session, turn };
}

describe('reasoning and tool calls', () => {
  it('the reasoning of a native tool-call step goes back with its calls, as Ollama asks', async () => {
    const { llm, turn } = setup(
      [
        {
          thinking: 'Multiply first.',
          toolCalls: [{ name: 'calculator__evaluate', arguments: { expression: '6*7' } }],
        },
        'It is 42.',
      ],
      { caps: { tools: true, thinking: true } },
    );
    await turn('What is 6*7?');
    const followUp = llm.requests[1]?.messages ?? [];
    expect(followUp.find((message) => message.role === 'assistant')).toEqual({
      role: 'assistant',
      content: '',
      toolCalls: [{ name: 'calculator__evaluate', arguments: { expression: '6*7' } }],
      thinking: 'Multiply first.',
    });
  });

  it('Ollama is sent it in the message’s `thinking`', () => {
    const settings = {
      baseUrl: 'http://127.0.0.1:1',
      model: 'qwen3',
      timeoutMs: 1_000,
      numCtx: 8192,
      toolMode: 'auto' as const,
      options: {},
    };
    const body = buildChatBody(settings, {
      messages: [
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ name: 'calculator__evaluate', arguments: {} }],
          thinking: 'Plan.',
        },
      ],
      think: 'max',
    });
    expect(body.messages?.[0]).toMatchObject({
      role: 'assistant',
      thinking: 'Plan.',
      tool_calls: [{ function: { name: 'calculator__evaluate' } }],
    });
    expect(body).toMatchObject({ think: 'max', truncate: false });
  });
});

describe('think on requests', () => {
  it('is sent as configured to a model that can think, and not at all when unset', async () => {
    const set = setup(['One.', 'Two.'], { think: 'high' });
    await set.turn('one');
    await set.turn('two');
    expect(set.llm.requests.map((request) => request.think)).toEqual(['high', 'high']);
    const unset = setup(['One.']);
    await unset.turn('one');
    expect(unset.llm.requests[0]).not.toHaveProperty('think');
  });

  it("is left out for a model that cannot think, with a warning the session's first request only", async () => {
    const { llm, turn } = setup(['One.', 'Two.'], { think: true, caps: { tools: false, thinking: false } });
    const first = await turn('one');
    const second = await turn('two');
    expect(llm.requests.every((request) => !('think' in request))).toBe(true);
    expect(first.filter((event) => event.type === 'notice')).toEqual([
      { type: 'notice', text: expect.stringContaining('scripted-model cannot think'), warning: true },
    ]);
    expect(second.some((event) => event.type === 'notice')).toBe(false);
  });

  it('follows /think for the next request', async () => {
    const { llm, session, turn } = setup(['One.', 'Two.']);
    await turn('one');
    session.setThink(false);
    await turn('two');
    expect(llm.requests.map((request) => request.think)).toEqual([undefined, false]);
  });
});

describe('reasoning and the history', () => {
  it('inline reasoning before a call is not sent back as what the model said', async () => {
    const { llm, turn } = setup([`<think>PLAN-9: use the calculator</think>${call('2+2')}`, 'Four.']);
    const events = await turn('2+2?');
    expect(events.filter((event) => event.type === 'thought')).toHaveLength(1);
    const sent = JSON.stringify(llm.requests[1]?.messages);
    expect(sent).toContain('calculator');
    expect(sent).not.toContain('PLAN-9');
  });

  it('native reasoning is never part of the text calls are read from', async () => {
    const { session, turn } = setup([{ thinking: call('9*9'), content: 'Nothing to compute.' }]);
    const events = await turn('hello');
    expect(events.some((event) => event.type === 'tool-call')).toBe(false);
    expect(session.chatbot.conversation.all().at(-1)).toEqual({ role: 'assistant', content: 'Nothing to compute.' });
  });
});

describe('the answer under format', () => {
  const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };

  it('asks again under format once the model answers without a call; earlier requests carry none', async () => {
    const { llm, session, turn } = setup([call('6*7'), 'The product is 42.', '{"n": 42}  \n'], {
      answerFormat: schema,
    });
    const events = await turn('6*7?');
    expect(llm.requests.map((request) => request.format)).toEqual([undefined, undefined, schema]);
    const last = llm.requests[2];
    expect(last?.tools).toBeUndefined();
    expect(last?.messages[0]?.content).toContain(JSON.stringify(schema));
    expect(last?.messages.slice(-2)).toEqual([
      { role: 'assistant', content: 'The product is 42.' },
      { role: 'user', content: expect.stringContaining('JSON Schema') },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'final', answer: '{"n": 42}', steps: 3 });
    // The draft and the request for JSON are not kept: the history holds the answer given.
    expect(session.chatbot.conversation.all().at(-1)).toEqual({ role: 'assistant', content: '{"n": 42}' });
  });

  it('with no tools at all, the first request is the answer and carries the format', async () => {
    const { llm, turn } = setup(['{"n": 7}'], { answerFormat: schema, host: new NoToolsHost() });
    const events = await turn('seven?');
    expect(llm.requests.map((request) => request.format)).toEqual([schema]);
    expect(events.at(-1)).toMatchObject({ type: 'final', answer: '{"n": 7}', steps: 1 });
  });

  it('takes the reply as the answer whatever it holds: nothing in it is run', async () => {
    const { llm, turn } = setup([call('1+1')], { answerFormat: schema, host: new NoToolsHost() });
    const events = await turn('one plus one?');
    expect(events.some((event) => event.type === 'tool-call')).toBe(false);
    expect(llm.requests).toHaveLength(1);
  });
});
