import { describe, expect, it } from 'vitest';
import type { TurnEvent } from '../../src/vocabulary/types.js';
import { ChatSession } from '../../src/session/chat-session.js';
import { OllamaError } from '../../src/shared/errors.js';
import { INTERRUPTED } from '../../src/engine/unfinished-turn.js';
import { FakeToolHost } from '../fakes/fake-tool-host.js';
import { ScriptedLlm, type ScriptedReply } from '../fakes/scripted-llm.js';
import { answering, testRuntime } from '../helpers/test-session.js';

const call = (server: string, tool: string, args: Record<string, unknown>): string =>
  JSON.stringify({ action: 'use_tool', server, tool, arguments: args });

function setup(replies: ScriptedReply[], overrides: { maxSteps?: number; tools?: boolean; approve?: boolean } = {}) {
  const llm = new ScriptedLlm(replies, { tools: overrides.tools ?? false, thinking: false });
  const host = new FakeToolHost();
  const session = new ChatSession(testRuntime({ toolMode: 'auto' }), host, llm, { maxSteps: overrides.maxSteps });
  const decision = overrides.approve ? 'once' : 'deny';
  const chatbot = {
    conversation: session.chatbot.conversation,
    runTurn: (text: string, signal?: AbortSignal) => answering(session, session.runTurn(text, signal), decision),
  };
  return { llm, host, chatbot };
}

async function collect(events: AsyncIterable<TurnEvent>, onEvent?: (event: TurnEvent) => void): Promise<TurnEvent[]> {
  const seen: TurnEvent[] = [];
  for await (const event of events) {
    seen.push(event);
    onEvent?.(event);
  }
  return seen;
}

const ofType = <T extends TurnEvent['type']>(events: TurnEvent[], type: T) =>
  events.filter((e): e is Extract<TurnEvent, { type: T }> => e.type === type);

describe('MCPChatbot.runTurn', () => {
  it('runs a text tool call, feeds the result back and streams the final answer', async () => {
    const { llm, chatbot } = setup([
      call('calculator', 'evaluate', { expression: '1234*5678' }),
      '1234 × 5678 = **7006652**.',
    ]);
    const events = await collect(chatbot.runTurn('What is 1234*5678?'));
    const final = ofType(events, 'final')[0];
    expect(final).toMatchObject({ answer: '1234 × 5678 = **7006652**.', steps: 2 });
    expect(final?.toolCalls).toEqual([
      {
        id: 'call_1',
        server: 'calculator',
        tool: 'evaluate',
        arguments: { expression: '1234*5678' },
        isError: false,
        result: '7006652',
        durationMs: 1,
      },
    ]);
    expect(llm.requests).toHaveLength(2);
    const second = llm.requests[1]?.messages ?? [];
    expect(second.at(-1)).toMatchObject({ role: 'user', toolResult: true });
    expect(second.at(-1)?.content).toContain('7006652');
    expect(second.at(-1)?.content).toContain('calculator.evaluate');
    // Only the answer is streamed: the call JSON never reaches the screen.
    const streamed = ofType(events, 'assistant-delta')
      .map((e) => e.text)
      .join('');
    expect(streamed).toBe('1234 × 5678 = **7006652**.');
  });

  it('tells the system prompt the exact JSON format and lists tools by server', async () => {
    const { llm, chatbot } = setup(['Hello!']);
    await collect(chatbot.runTurn('hi'));
    const system = llm.requests[0]?.messages[0];
    expect(system?.role).toBe('system');
    expect(system?.content).toContain(
      '{"action":"use_tool","server":"<server>","tool":"<tool>","arguments":{"<parameter>":"<value>"}}',
    );
    expect(system?.content).toContain('## Server "calculator"');
    expect(system?.content).toContain('expression (string, required)');
    expect(llm.requests[0]?.tools).toBeUndefined();
  });

  it('runs several steps of tools before answering', async () => {
    const { host, chatbot } = setup([
      call('calculator', 'evaluate', { expression: '2+3' }),
      call('calculator', 'evaluate', { expression: '5*4' }),
      'The answer is 20.',
    ]);
    const events = await collect(chatbot.runTurn('(2+3)*4?'));
    expect(host.calls.map((c) => c.arguments.expression)).toEqual(['2+3', '5*4']);
    expect(ofType(events, 'final')[0]).toMatchObject({ steps: 3 });
  });

  it('answers a malformed call with a correction hint, then runs the corrected call', async () => {
    const { llm, chatbot } = setup([
      '{"action": "use_tool", "server": "calculator", "tool": "evaluate", "arguments": {"expression": ',
      call('calculator', 'evaluate', { expression: '6*7' }),
      '42',
    ]);
    const events = await collect(chatbot.runTurn('6*7?'));
    expect(ofType(events, 'malformed-call')).toHaveLength(1);
    const hint = llm.requests[1]?.messages.at(-1);
    expect(hint).toMatchObject({ role: 'user', toolResult: true });
    expect(hint?.content).toMatch(/^The call to evaluate was not run: your reply ended before the call was complete/);
    expect(ofType(events, 'notice')[0]?.text).toMatch(/^evaluate was not run: the reply ended before/);
    expect(ofType(events, 'final')[0]).toMatchObject({ answer: '42', steps: 3 });
  });

  it('reports an unknown tool as a failed call listing the real tools', async () => {
    const { llm, chatbot } = setup([call('calculator', 'sqrt', { x: 4 }), 'Sorry.']);
    const events = await collect(chatbot.runTurn('sqrt 4'));
    const final = ofType(events, 'final')[0];
    expect(final?.toolCalls).toHaveLength(1);
    expect(final?.toolCalls[0]).toMatchObject({ tool: 'sqrt', isError: true });
    expect(llm.requests[1]?.messages.at(-1)?.content).toContain('calculator.evaluate');
  });

  it('stops at the step limit without a final answer', async () => {
    const loop = call('calculator', 'evaluate', { expression: '1+1' });
    const { chatbot } = setup([loop, loop, loop], { maxSteps: 3 });
    const events = await collect(chatbot.runTurn('loop'));
    expect(events.at(-1)).toMatchObject({ type: 'step-limit', steps: 3 });
    expect(ofType(events, 'step-limit')[0]?.toolCalls).toHaveLength(3);
  });

  it('cancels mid-stream, and keeps the question and the reply shown so far, marked as interrupted', async () => {
    const { llm, chatbot } = setup(['First answer.', { content: 'Partial answer', hang: true }, 'After cancel.']);
    await collect(chatbot.runTurn('one'));
    const before = chatbot.conversation.length;
    const controller = new AbortController();
    let shown = '';
    const events = await collect(chatbot.runTurn('two', controller.signal), (event) => {
      if (event.type !== 'assistant-delta') return;
      shown += event.text;
      controller.abort();
    });
    expect(shown.length).toBeGreaterThan(0);
    expect(events.at(-1)).toEqual({ type: 'cancelled' });
    expect(chatbot.conversation.all().slice(before)).toEqual([
      { role: 'user', content: 'two' },
      { role: 'assistant', content: `${shown}\n\n${INTERRUPTED}` },
    ]);
    const next = await collect(chatbot.runTurn('three'));
    expect(ofType(next, 'final')[0]?.answer).toBe('After cancel.');
    expect(
      llm.requests
        .at(-1)
        ?.messages.slice(-3)
        .map((message) => message.content),
    ).toEqual(['two', `${shown}\n\n${INTERRUPTED}`, 'three']);
  });

  it('cancels before any reply: the question stays, marked as interrupted', async () => {
    const { chatbot } = setup([]);
    const controller = new AbortController();
    controller.abort();
    const events = await collect(chatbot.runTurn('too late', controller.signal));
    expect(events.at(-1)).toEqual({ type: 'cancelled' });
    expect(chatbot.conversation.all()).toEqual([
      { role: 'user', content: 'too late' },
      { role: 'assistant', content: INTERRUPTED },
    ]);
  });

  it('cancels mid-tool: the tool is told and the turn ends', async () => {
    const { host, chatbot } = setup([call('slow', 'wait', {})]);
    const controller = new AbortController();
    const events = await collect(chatbot.runTurn('wait', controller.signal), (event) => {
      if (event.type === 'tool-call') queueMicrotask(() => controller.abort());
    });
    expect(events.at(-1)).toEqual({ type: 'cancelled' });
    expect(host.cancelled).toBe(1);
    // The call stays, with its state, on screen and in the conversation.
    const [stopped] = ofType(events, 'tool-result');
    expect(stopped?.result).toMatchObject({ isError: true, cancelled: true });
    expect(stopped?.result.forModel).toBe(
      'slow.wait was cancelled by the user while it ran; part of its work may be done.',
    );
    const kept = chatbot.conversation.all();
    expect(kept.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(kept[2]?.content).toContain('slow.wait was cancelled by the user while it ran');
    expect(kept[3]?.content).toBe(INTERRUPTED);
  });

  it('denies a tool that needs approval and tells the model', async () => {
    const { llm, host, chatbot } = setup([
      call('file', 'write_file', { path: 'a.txt', content: 'x' }),
      'I could not write it.',
    ]);
    const events = await collect(chatbot.runTurn('write a.txt'));
    expect(host.files.size).toBe(0);
    expect(ofType(events, 'final')[0]?.toolCalls[0]).toMatchObject({ tool: 'write_file', isError: true });
    expect(llm.requests[1]?.messages.at(-1)?.content).toContain('did not approve');
  });

  it('runs a tool that needs approval once approved', async () => {
    const { host, chatbot } = setup([call('file', 'write_file', { path: 'a.txt', content: 'x' }), 'Done.'], {
      approve: true,
    });
    await collect(chatbot.runTurn('write a.txt'));
    expect(host.files.get('a.txt')).toBe('x');
  });

  it('waits for an approval given late: nothing is denied because the front end was slow to answer', async () => {
    const llm = new ScriptedLlm([call('file', 'write_file', { path: 'a.txt', content: 'x' }), 'Done.']);
    const host = new FakeToolHost();
    const session = new ChatSession(testRuntime(), host, llm);
    const events = await collect(session.runTurn('write a.txt'), (event) => {
      // As the REPL does: the question is answered later, after the turn has been resumed.
      if (event.type === 'approval-request') setImmediate(() => session.answer(event.id, 'once'));
    });
    expect(ofType(events, 'approval-request')).toHaveLength(1);
    expect(host.files.get('a.txt')).toBe('x');
    expect(ofType(events, 'final')[0]?.answer).toBe('Done.');
  });

  it('a cancel while the question is open refuses the call and ends the turn as cancelled', async () => {
    const llm = new ScriptedLlm([call('file', 'write_file', { path: 'a.txt', content: 'x' })]);
    const host = new FakeToolHost();
    const session = new ChatSession(testRuntime(), host, llm);
    const controller = new AbortController();
    const events = await collect(session.runTurn('write a.txt', controller.signal), (event) => {
      if (event.type === 'approval-request') controller.abort();
    });
    // Only the read that compared the write with the file ran.
    expect(host.calls.map((called) => called.tool)).toEqual(['read_file']);
    expect(events.at(-1)).toEqual({ type: 'cancelled' });
    expect(ofType(events, 'tool-result')[0]?.result).toMatchObject({
      cancelled: true,
      forModel: 'file.write_file was not run: the user cancelled the turn first.',
    });
  });

  it('"always" stops the asking for that tool only, for the rest of the session', async () => {
    const replies = [
      call('file', 'write_file', { path: 'a', content: '1' }),
      'One.',
      call('file', 'write_file', { path: 'b', content: '2' }),
      'Two.',
    ];
    const host = new FakeToolHost();
    const session = new ChatSession(testRuntime(), host, new ScriptedLlm(replies));
    const first = await collect(answering(session, session.runTurn('write a'), 'always'));
    const second = await collect(session.runTurn('write b'));
    expect(ofType(first, 'approval-request')).toHaveLength(1);
    expect(ofType(second, 'approval-request')).toHaveLength(0);
    expect([...host.files.keys()]).toEqual(['a', 'b']);
  });

  it('uses native tool calls when the model supports them, with tool-role results', async () => {
    const { llm, chatbot } = setup(
      [{ toolCalls: [{ name: 'calculator__evaluate', arguments: { expression: '2*21' } }] }, 'It is 42.'],
      { tools: true },
    );
    const events = await collect(chatbot.runTurn('2*21?'));
    expect(llm.requests[0]?.tools?.map((t) => t.name)).toContain('calculator__evaluate');
    expect(llm.requests[1]?.messages.at(-2)).toMatchObject({
      role: 'assistant',
      toolCalls: [{ name: 'calculator__evaluate' }],
    });
    expect(llm.requests[1]?.messages.at(-1)).toEqual({ role: 'tool', content: '42', toolName: 'calculator__evaluate' });
    expect(ofType(events, 'final')[0]).toMatchObject({ answer: 'It is 42.', steps: 2 });
  });

  it('resolves a native call that names the tool without its server', async () => {
    const { host, chatbot } = setup([{ toolCalls: [{ name: 'evaluate', arguments: { expression: '3*3' } }] }, '9'], {
      tools: true,
    });
    await collect(chatbot.runTurn('3*3'));
    expect(host.calls[0]).toEqual({ server: 'calculator', tool: 'evaluate', arguments: { expression: '3*3' } });
  });

  it('in tool_mode xml, asks for calls as XML elements and offers no native tools', async () => {
    const llm = new ScriptedLlm(['Hi.'], { tools: true, thinking: false });
    const session = new ChatSession(testRuntime({ toolMode: 'xml' }), new FakeToolHost(), llm);
    await collect(session.runTurn('hi'));
    const system = llm.requests[0]?.messages[0]?.content ?? '';
    expect(system).toContain('reply with ONLY this XML element and nothing else:');
    expect(system).toContain('<use_tool server="<server>" tool="<tool>">{"<parameter>":"<value>"}</use_tool>');
    expect(system).toContain(
      'Example: <use_tool server="calculator" tool="evaluate">{"expression":"<expression>"}</use_tool>',
    );
    expect(llm.requests[0]?.tools).toBeUndefined();
  });

  it("no re-routing: a native call naming a configured server runs only that server's tool", async () => {
    const { host, chatbot } = setup(
      [{ toolCalls: [{ name: 'file__evaluate', arguments: { expression: '2*2' } }] }, 'Sorry.'],
      { tools: true },
    );
    const events = await collect(chatbot.runTurn('2*2'));
    expect(host.calls).toHaveLength(0);
    expect(ofType(events, 'tool-result')[0]?.result).toMatchObject({ isError: true });
    expect(ofType(events, 'tool-result')[0]?.result.forModel).toContain('Unknown tool "file__evaluate"');
  });

  it('falls back to text tool calls when the model refuses native tools', async () => {
    const refusal = new OllamaError('model does not support tools', 'no-tool-support');
    const { llm, chatbot } = setup([{ error: refusal }, call('calculator', 'evaluate', { expression: '1+2' }), '3'], {
      tools: true,
    });
    const events = await collect(chatbot.runTurn('1+2'));
    expect(ofType(events, 'final')[0]?.answer).toBe('3');
    expect(llm.requests[1]?.tools).toBeUndefined();
    expect(llm.requests[1]?.messages[0]?.content).toContain('"action":"use_tool"');
  });

  it('never executes or shows thinking', async () => {
    const thinkingCall = call('file', 'write_file', { path: 'x', content: 'y' });
    const { host, chatbot } = setup([
      { thinking: `maybe ${thinkingCall}`, content: `<think>${thinkingCall}</think>The answer is 4.` },
    ]);
    const events = await collect(chatbot.runTurn('2+2'));
    expect(host.calls).toHaveLength(0);
    expect(ofType(events, 'final')[0]?.answer).toBe('The answer is 4.');
    expect(
      ofType(events, 'assistant-delta')
        .map((e) => e.text)
        .join(''),
    ).toBe('The answer is 4.');
    expect(ofType(events, 'thinking-delta').length).toBeGreaterThan(0);
  });

  it('with no bound set, sends the whole conversation while it fits', async () => {
    const replies = Array.from({ length: 12 }, (_, i) =>
      i % 2 === 0 ? call('calculator', 'evaluate', { expression: `${i}+1` }) : `answer ${i}`,
    );
    const llm = new ScriptedLlm(replies, { tools: false, thinking: false });
    const session = new ChatSession(testRuntime({ toolMode: 'auto' }, {}), new FakeToolHost(), llm);
    for (let turn = 0; turn < 6; turn++) await collect(session.runTurn(`question ${turn}`));
    const last = llm.requests.at(-1)?.messages ?? [];
    // The system prompt, five whole tool turns, and the last one's question, call and result.
    expect(last).toHaveLength(1 + 5 * 4 + 3);
    expect(last[1]).toEqual({ role: 'user', content: 'question 0' });
    expect(llm.requests).toHaveLength(12);
  });

  it('reports an Ollama failure as an error event and keeps the conversation', async () => {
    const down = new OllamaError(
      'Ollama is not reachable at http://127.0.0.1:1',
      'unreachable',
      'Start it with `ollama serve`',
    );
    const { chatbot } = setup(['Hi.', { error: down }, 'Back.']);
    await collect(chatbot.runTurn('one'));
    const events = await collect(chatbot.runTurn('two'));
    expect(events.at(-1)).toEqual({ type: 'error', kind: 'unreachable', message: down.message, hint: down.hint });
    expect(chatbot.conversation.all().map((m) => m.content)).toEqual(['one', 'Hi.']);
  });
});
