/**
 * The REPL's state as a pure reducer: turn events and user actions in, state out, with
 * no React and no terminal. What the screen shows follows from these states alone.
 */
import { describe, expect, it } from 'vitest';
import type { ToolCall, ToolProgress, TurnEvent } from '../../src/vocabulary/types.js';
import { reduceChat, type ChatAction } from '../../src/ui/chat-reducer.js';
import {
  askedArgument,
  initialChatState,
  isBusy,
  queuedToSend,
  staticKey,
  type ChatState,
} from '../../src/ui/chat-state.js';

const start = (): ChatState => initialChatState({ model: 'llama3.2', configSource: '/cfg.json' }, []);
const run = (state: ChatState, ...actions: ChatAction[]): ChatState => actions.reduce(reduceChat, state);
const event = (turnEvent: TurnEvent, debug = false): ChatAction => ({ type: 'turn-event', event: turnEvent, debug });
const write: ToolCall = { server: 'file', tool: 'write_file', arguments: { path: 'a.txt', content: 'x' } };
const kinds = (state: ChatState): string[] => state.items.map((item) => item.type);

describe('chat reducer', () => {
  it('starts with the banner, idle, Ollama being checked', () => {
    const state = start();
    expect(state.items).toEqual([{ id: 0, type: 'banner', model: 'llama3.2', configSource: '/cfg.json' }]);
    expect(isBusy(state)).toBe(false);
    expect(state.ollama).toEqual({ state: 'checking' });
  });

  it('a turn is busy from its start to its end, and the final answer is committed once', () => {
    let state = run(start(), { type: 'add', items: [{ type: 'user', text: 'hi' }] }, { type: 'turn-started' });
    expect(isBusy(state)).toBe(true);
    state = run(
      state,
      event({ type: 'assistant-delta', text: 'Hel' }),
      event({ type: 'assistant-delta', text: 'lo.' }),
    );
    expect(state.activity).toEqual({ type: 'streaming' });
    expect(state.streamed).toBe('Hello.');
    state = run(state, event({ type: 'final', answer: 'Hello.', steps: 1, toolCalls: [] }), { type: 'turn-ended' });
    expect(state.items.at(-1)).toMatchObject({ type: 'assistant', text: 'Hello.' });
    expect(kinds(state)).toEqual(['banner', 'user', 'assistant']);
    expect(state.streamed).toBe('');
    expect(isBusy(state)).toBe(false);
    expect(state.ollama).toEqual({ state: 'ok' });
  });

  it('prose streamed before a tool call stays above the tool line', () => {
    const result = { isError: false, forModel: 'wrote a.txt', durationMs: 3 };
    const state = run(
      start(),
      { type: 'turn-started' },
      event({ type: 'assistant-delta', text: 'Writing it now. ' }),
      event({ type: 'tool-call', id: 'call_1', call: write, step: 1 }),
      event({ type: 'tool-result', id: 'call_1', call: write, result, step: 1 }),
    );
    expect(state.items.slice(1)).toEqual([
      { id: 1, type: 'assistant', text: 'Writing it now.' },
      { id: 2, type: 'tool', call: write, result },
    ]);
    expect(state.activity).toEqual({ type: 'waiting' });
  });

  it('an approval request takes no answer until ready; a key typed ahead makes it wait again', () => {
    let state = run(
      start(),
      { type: 'turn-started' },
      event({ type: 'tool-call', id: 'call_1', call: write, step: 1 }),
    );
    state = run(state, event({ type: 'approval-request', id: 'question_1', callId: 'call_1', call: write, step: 1 }));
    expect(state.activity).toMatchObject({
      type: 'approval',
      id: 'question_1',
      callId: 'call_1',
      call: write,
      ready: false,
    });
    state = run(state, { type: 'approval-ready' }, { type: 'approval-choice', choice: 'always' });
    expect(state.activity).toMatchObject({ ready: true, choice: 'always' });
    state = run(state, { type: 'approval-typed-ahead' });
    expect(state.activity).toMatchObject({ ready: false, choice: undefined });
    state = run(state, { type: 'approval-whole-call' });
    expect(state.items.at(-1)).toEqual({
      id: 1,
      type: 'info',
      text: 'file.write_file with every argument:\n{\n  "path": "a.txt",\n  "content": "x"\n}',
    });
    state = run(state, { type: 'approval-answered' });
    expect(state.activity).toEqual({ type: 'tool', calls: [{ id: 'call_1', call: write }] });
    // A second answer for a question already answered changes nothing.
    expect(run(state, { type: 'approval-answered' })).toBe(state);
  });

  it('a running call shows the progress it last reported; a report for a call not running changes nothing', () => {
    const slow: ToolCall = { server: 'everything', tool: 'trigger-long-running-operation', arguments: {} };
    let state = run(start(), { type: 'turn-started' }, event({ type: 'tool-call', id: 'call_1', call: slow, step: 1 }));
    const progress = (id: string, reported: ToolProgress): ChatAction =>
      event({ type: 'tool-progress', id, call: slow, step: 1, progress: reported });
    state = run(state, progress('call_1', { progress: 1, total: 4 }), progress('call_1', { progress: 3, total: 4 }));
    expect(state.activity).toEqual({
      type: 'tool',
      calls: [{ id: 'call_1', call: slow }],
      progress: new Map([['call_1', { progress: 3, total: 4 }]]),
    });
    expect(run(state, progress('call_2', { progress: 1 }))).toBe(state);
  });

  it('calls are told apart by id, not by what they ask: two equal calls, each result ends its own', () => {
    const look: ToolCall = { server: 'file', tool: 'read_file', arguments: { path: 'a.txt' } };
    const result = { isError: false, forModel: 'a', durationMs: 1 };
    let state = run(
      start(),
      { type: 'turn-started' },
      event({ type: 'tool-call', id: 'call_1', call: look, step: 1 }),
      event({ type: 'tool-call', id: 'call_2', call: { ...look }, step: 1 }),
      event({ type: 'tool-result', id: 'call_2', call: { ...look }, result, step: 1 }),
    );
    expect(state.activity).toEqual({ type: 'tool', calls: [{ id: 'call_1', call: look }] });
    state = run(state, event({ type: 'tool-result', id: 'call_1', call: look, result, step: 1 }));
    expect(state.activity).toEqual({ type: 'waiting' });
  });

  it("a prompt's missing arguments are asked one at a time; an empty answer asks again; a turn or Esc ends it", () => {
    const asking = {
      prompt: 'everything:completable-prompt',
      arguments: [
        { name: 'department', description: 'Choose the department.', required: true },
        { name: 'name', required: true },
      ],
      line: '/everything:completable-prompt',
      answers: {},
    };
    let state = run(start(), { type: 'ask-arguments', asking });
    expect(state.items.at(-1)).toMatchObject({
      type: 'info',
      text: 'everything:completable-prompt needs department (Choose the department.), name: type each and press Enter (Tab suggests, Esc cancels).',
    });
    expect(isBusy(state)).toBe(false);
    expect(askedArgument(state.asking ?? asking)?.name).toBe('department');
    state = run(state, { type: 'argument-answered', value: '' });
    expect(state.items.at(-1)).toMatchObject({ type: 'error', text: 'department needs a value.' });
    state = run(state, { type: 'argument-answered', value: 'Sales' });
    expect(state.items.at(-1)).toMatchObject({ type: 'user', text: 'department=Sales' });
    expect(state.asking?.answers).toEqual({ department: 'Sales' });
    expect(askedArgument(state.asking ?? asking)?.name).toBe('name');
    expect(run(state, { type: 'turn-started' }).asking).toBeUndefined();
    const cancelled = run(state, { type: 'asking-cancelled' });
    expect(cancelled.asking).toBeUndefined();
    expect(cancelled.items.at(-1)).toMatchObject({ type: 'info', text: 'Cancelled /everything:completable-prompt.' });
  });

  it('a line sent while a turn runs waits; it is the one to send only once nothing runs or asks', () => {
    let state = run(
      start(),
      { type: 'turn-started' },
      { type: 'queued', text: 'next' },
      { type: 'queued', text: 'next' },
    );
    expect(state.queued).toEqual(['next', 'next']);
    expect(queuedToSend(state)).toBeUndefined();
    state = run(state, { type: 'question', question: { type: 'url', id: 'q_1', text: 'Open it?' } });
    state = run(state, { type: 'turn-ended' });
    expect(queuedToSend(state)).toBeUndefined();
    state = run(state, { type: 'question-done', id: 'q_1' });
    expect(queuedToSend(state)).toBe('next');
    state = run(state, { type: 'queue-taken' });
    expect(state.queued).toEqual(['next']);
    expect(
      queuedToSend(
        run(state, {
          type: 'pull-progress',
          pulling: { model: 'm', progress: { status: 'pulling', total: 0, completed: 0, transferred: 0 } },
        }),
      ),
    ).toBeUndefined();
    state = run(state, { type: 'queue-taken' });
    expect(queuedToSend(state)).toBeUndefined();
  });

  it('debug shows which tools a request offered and why, the budget and what they took', () => {
    const offer = {
      catalogue: 95,
      budgetTokens: 2048,
      tokens: 1990,
      form: 'short' as const,
      tools: [
        { name: 'notion.API-get-self', reason: 'always' as const },
        { name: 'playwright.browser_take_screenshot', reason: 'ranked' as const, rank: 1 },
        { name: 'memory.read_graph', reason: 'ranked' as const, rank: 7, listed: true as const },
      ],
      embeddings: { failed: 'model "nomic-embed-text" not found' },
    };
    const state = run(start(), event({ type: 'tools-offered', step: 1, offer }, true));
    expect(state.items.at(-1)).toMatchObject({
      type: 'debug',
      text:
        'step 1, tools offered: 3 of 95 (1990 of 2048 tokens, short descriptions; 1 of them listed in the system ' +
        'prompt, called as text), and find_tools\n' +
        '  always: notion.API-get-self\n' +
        '  ranked: playwright.browser_take_screenshot #1\n' +
        '  ranked, listed: memory.read_graph #7\n' +
        '  embeddings off: model "nomic-embed-text" not found',
    });
    expect(run(start(), event({ type: 'tools-offered', step: 1, offer }, false)).items).toEqual(start().items);
  });

  it('a cancel keeps what was streamed and says so; an error marks Ollama down with its hint', () => {
    const cancelled = run(
      start(),
      { type: 'turn-started' },
      event({ type: 'assistant-delta', text: 'Partial' }),
      event({ type: 'cancelled' }),
    );
    expect(cancelled.items.slice(1)).toEqual([
      { id: 1, type: 'assistant', text: 'Partial' },
      { id: 2, type: 'info', text: 'Cancelled.' },
    ]);
    const failed = run(
      start(),
      { type: 'turn-started' },
      event({ type: 'error', kind: 'unreachable', message: 'Ollama is not reachable', hint: 'Start it' }),
    );
    expect(failed.items.at(-1)).toEqual({ id: 1, type: 'error', text: 'Ollama is not reachable', hint: 'Start it' });
    expect(failed.ollama).toEqual({ state: 'down', message: 'Ollama is not reachable', hint: 'Start it' });
    // An error of the input, not of Ollama, leaves the status bar's word on Ollama as it was.
    const usage = run(start(), event({ type: 'error', kind: 'usage', message: 'prompt arguments are key=value' }));
    expect(usage.ollama).toEqual(start().ollama);
  });

  it('debug items appear only when debug was on for the event', () => {
    const reply: TurnEvent = { type: 'model-reply', raw: '{"action":"use_tool"}', step: 1, durationMs: 5 };
    expect(kinds(run(start(), event(reply, false)))).toEqual(['banner']);
    const shown = run(
      start(),
      event(reply, true),
      event({ type: 'tool-call', id: 'call_1', call: write, step: 1 }, true),
    );
    expect(shown.items.slice(1).map((item) => (item.type === 'debug' ? item.text : item.type))).toEqual([
      'step 1, 5 ms, raw reply:\n{"action":"use_tool"}',
      'parsed call: file.write_file {"path":"a.txt","content":"x"}',
    ]);
  });

  it('clear empties the history and starts a new epoch; ids keep counting', () => {
    const clear: ChatAction = { type: 'command-done', result: { items: [{ type: 'info', text: 'two' }], clear: true } };
    const state = run(start(), { type: 'add', items: [{ type: 'info', text: 'one' }] }, clear);
    expect(state.items).toEqual([{ id: 2, type: 'info', text: 'two' }]);
    expect(state.epoch).toBe(1);
    expect(state.exiting).toBe(false);
    // What was shown before the clear belonged to the session it ended.
    expect(state.unsaved).toEqual([{ type: 'info', text: 'two' }]);
  });

  it('items written to the scrollback are let go, and the next <Static> starts after them', () => {
    const add = (text: string): ChatAction => ({ type: 'add', items: [{ type: 'info', text }] });
    const drawn = run(start(), add('one'), add('two'));
    const before = staticKey(drawn);
    // An item added after the frame that drew the others stays until it is drawn in turn.
    const state = run(drawn, add('three'), { type: 'printed', lastId: 2 });
    expect(state.items).toEqual([{ id: 3, type: 'info', text: 'three' }]);
    expect(staticKey(state)).not.toBe(before);
    const all = run(state, { type: 'printed', lastId: 3 });
    expect(all.items).toEqual([]);
    expect(staticKey(all)).not.toBe(staticKey(state));
    // A frame that drew nothing new changes nothing.
    expect(run(all, { type: 'printed', lastId: 3 })).toBe(all);
    // Drawn or not, every item waits for the session's next save, and a save takes what it was given.
    expect(all.unsaved.map((item) => item.type === 'info' && item.text)).toEqual(['one', 'two', 'three']);
    const saved = run(all, { type: 'saved', count: 2 }, add('four'));
    expect(saved.unsaved).toEqual([
      { type: 'info', text: 'three' },
      { type: 'info', text: 'four' },
    ]);
  });

  it('a resumed session is drawn but not saved again; the line saying so is', () => {
    const resumed: ChatAction = {
      type: 'command-done',
      result: { shown: [{ type: 'user', text: 'earlier' }], items: [{ type: 'info', text: 'Resumed' }], clear: true },
    };
    const state = run(start(), resumed);
    expect(kinds(state)).toEqual(['user', 'info']);
    expect(state.unsaved).toEqual([{ type: 'info', text: 'Resumed' }]);
  });

  it('a sent line stays in the scrollback; an unknown command says what was meant and where the list is', () => {
    const parsed = { type: 'unknown-command', text: '/tols', suggestion: 'tools' } as const;
    const state = run(start(), { type: 'submitted', text: ' /tols ', parsed });
    expect(state.items.slice(1)).toEqual([
      { id: 1, type: 'user', text: '/tols' },
      {
        id: 2,
        type: 'error',
        text: 'Unknown command /tols. Did you mean /tools?',
        hint: 'Type help for the list of commands.',
      },
    ]);
    expect(run(start(), { type: 'command-done', result: { items: [], exit: true } }).exiting).toBe(true);
  });

  it('a failed start check explains itself once and says the REPL still works; a passed one says nothing', () => {
    const down = run(start(), {
      type: 'ollama-checked',
      status: { state: 'down', message: 'not reachable', hint: 'Start it' },
    });
    expect(down.items.slice(1)).toEqual([
      {
        id: 1,
        type: 'error',
        text: 'not reachable',
        hint: 'Start it. Built-in commands work meanwhile; the next message tries Ollama again.',
      },
    ]);
    const up = run(start(), { type: 'ollama-checked', status: { state: 'ok' } });
    expect(up.items).toHaveLength(1);
    expect(up.ollama).toEqual({ state: 'ok' });
  });

  it('a step limit is an error item with what to do', () => {
    const state = run(start(), event({ type: 'step-limit', steps: 5, toolCalls: [] }));
    expect(state.items.at(-1)).toEqual({
      id: 1,
      type: 'error',
      text: 'No final answer after 5 steps.',
      hint: 'Ask again, or more specifically.',
    });
  });
});
