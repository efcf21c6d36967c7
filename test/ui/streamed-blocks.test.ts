/**
 * A streaming reply in the REPL's state: each finished markdown block goes to the history as it
 * ends, the live text is only the block still being written, and the reply is saved whole, once.
 */
import { describe, expect, it } from 'vitest';
import type { ToolCall, TurnEvent } from '../../src/vocabulary/types.js';
import { reduceChat, type ChatAction } from '../../src/ui/chat-reducer.js';
import { initialChatState, type ChatState } from '../../src/ui/chat-state.js';
import type { HistoryItem } from '../../src/ui/history.js';

const run = (state: ChatState, ...actions: ChatAction[]): ChatState => actions.reduce(reduceChat, state);
const event = (turnEvent: TurnEvent): ChatAction => ({ type: 'turn-event', event: turnEvent, debug: false });
const delta = (text: string): ChatAction => event({ type: 'assistant-delta', text });
const final = (answer: string): ChatAction => event({ type: 'final', answer, steps: 1, toolCalls: [] });
const started = (): ChatState =>
  run(initialChatState({ model: 'llama3.2', configSource: '/cfg.json' }, []), { type: 'turn-started' });

/** The reply's items on screen, as text and whether each goes on from the one above. */
const shown = (state: ChatState): Array<[string, boolean]> =>
  state.items
    .filter((item): item is Extract<HistoryItem, { type: 'assistant' }> => item.type === 'assistant')
    .map((item) => [item.text, item.continued === true]);

/** Streams `reply` in deltas of `size` characters. */
const deltas = (reply: string, size: number): ChatAction[] =>
  Array.from({ length: Math.ceil(reply.length / size) }, (_, index) =>
    delta(reply.slice(index * size, (index + 1) * size)),
  );

describe('a streaming reply, block by block', () => {
  it('commits each finished paragraph in order as the next begins; the live text is the last one', () => {
    let state = run(started(), ...deltas('First paragraph.\n\nSecond paragraph.\n\nThird, still go', 5));
    expect(shown(state)).toEqual([
      ['First paragraph.', false],
      ['Second paragraph.', true],
    ]);
    expect(state.streamed).toBe('Third, still go');
    state = run(state, delta('ing.'), final('First paragraph.\n\nSecond paragraph.\n\nThird, still going.'));
    expect(shown(state)).toEqual([
      ['First paragraph.', false],
      ['Second paragraph.', true],
      ['Third, still going.', true],
    ]);
    expect(state.streamed).toBe('');
    // Saved once, whole: a resumed session and an export show the answer as one.
    expect(state.unsaved).toEqual([
      { type: 'assistant', text: 'First paragraph.\n\nSecond paragraph.\n\nThird, still going.' },
    ]);
  });

  it('keeps a fence with blank lines, a loose list and a table whole, each one block', () => {
    const fence = '```py\na = 1\n\nb = 2\n```';
    const list = '1. one\n\n2. two\n\n   more of two';
    const table = '| a | b |\n|---|---|\n| 1 | 2 |';
    const reply = `Intro.\n\n${fence}\n\n${list}\n\n${table}\n\nDone.`;
    const state = run(started(), ...deltas(reply, 3), final(reply));
    expect(shown(state).map(([text]) => text)).toEqual(['Intro.', fence, list, table, 'Done.']);
  });

  it('a reply with no blank line at all stays live whole until its end', () => {
    const reply = Array.from({ length: 200 }, (_, index) => `Line ${index} of one paragraph.`).join('\n');
    let state = run(started(), ...deltas(reply, 7));
    expect(shown(state)).toEqual([]);
    expect(state.streamed).toBe(reply);
    state = run(state, final(reply));
    expect(shown(state)).toEqual([[reply, false]]);
  });

  it('the live text stays short while a long multi-paragraph reply streams', () => {
    const paragraphs = Array.from({ length: 300 }, (_, index) => `Paragraph ${index} says a few words and ends.`);
    const reply = paragraphs.join('\n\n');
    let state = started();
    let longest = 0;
    for (const action of deltas(reply, 11)) {
      state = reduceChat(state, action);
      longest = Math.max(longest, state.streamed.length);
    }
    // A paragraph, the blank line and the next line: the reply is over a hundred times as long.
    expect(longest).toBeLessThan(120);
    state = run(state, final(reply));
    expect(shown(state).map(([text]) => text)).toEqual(paragraphs);
  });
});

describe('the end of a reply drawn block by block', () => {
  it('the final answer adds no text already shown: trimmed, shorter, or the same', () => {
    const reply = 'One.\n\nTwo.\n\n';
    const streamed = run(started(), delta(reply), delta('Three.\n'));
    expect(shown(run(streamed, final('One.\n\nTwo.\n\nThree.')))).toEqual([
      ['One.', false],
      ['Two.', true],
      ['Three.', true],
    ]);
    // A call the model wrote after its prose was stripped from the answer: nothing more to show.
    expect(shown(run(streamed, final('One.\n\nTwo.')))).toEqual([
      ['One.', false],
      ['Two.', true],
    ]);
  });

  it('an answer unlike the prose streamed is shown after it, without what of it the history has', () => {
    // The chatbot streams such an answer on a line of its own after the prose it showed.
    const draft = run(started(), delta('Draft.\n\n'), delta('\nF'), delta('inal one.\n\nFinal t'));
    expect(shown(draft)).toEqual([
      ['Draft.', false],
      ['Final one.', true],
    ]);
    const state = run(draft, delta('wo.\n\nFinal three.'), final('Final one.\n\nFinal two.\n\nFinal three.'));
    expect(shown(state).map(([text]) => text)).toEqual(['Draft.', 'Final one.', 'Final two.', 'Final three.']);
    expect(state.unsaved).toEqual([{ type: 'assistant', text: 'Final one.\n\nFinal two.\n\nFinal three.' }]);
    // Its delta still batched when the answer came: the answer is new to the screen, all of it.
    const batched = run(started(), delta('Draft one.\n\nDraft two'), final('Final.'));
    expect(shown(batched)).toEqual([
      ['Draft one.', false],
      ['Final.', true],
    ]);
  });

  it('a cancel mid-stream keeps every block streamed, saves them as one item, and says so', () => {
    const state = run(
      started(),
      delta('Once upon a time.\n\nThere was a '),
      delta('king.\n\nAnd he'),
      event({ type: 'cancelled' }),
      { type: 'turn-ended' },
    );
    expect(shown(state)).toEqual([
      ['Once upon a time.', false],
      ['There was a king.', true],
      ['And he', true],
    ]);
    expect(state.items.at(-1)).toMatchObject({ type: 'info', text: 'Cancelled.' });
    expect(state.unsaved).toEqual([
      { type: 'assistant', text: 'Once upon a time.\n\nThere was a king.\n\nAnd he' },
      { type: 'info', text: 'Cancelled.' },
    ]);
  });

  it('a tool call commits the prose before it; the next reply starts its own blocks', () => {
    const call: ToolCall = { server: 'calculator', tool: 'evaluate', arguments: { expression: '6*7' } };
    const result = { isError: false, forModel: '42', durationMs: 1 };
    const state = run(
      started(),
      delta('Let me work it out.\n\nI will call the calculator.'),
      event({ type: 'tool-call', id: 'call_1', call, step: 1 }),
      event({ type: 'tool-result', id: 'call_1', call, result, step: 1 }),
      delta('It is 42.\n\nThat is all.'),
      final('It is 42.\n\nThat is all.'),
    );
    expect(state.items.slice(1).map((item) => [item.type, 'text' in item ? item.text : ''])).toEqual([
      ['assistant', 'Let me work it out.'],
      ['assistant', 'I will call the calculator.'],
      ['tool', ''],
      ['assistant', 'It is 42.'],
      ['assistant', 'That is all.'],
    ]);
    expect(shown(state).map(([, continued]) => continued)).toEqual([false, true, false, true]);
  });

  it('a turn that ends with no word of its end (a bug) still keeps and saves what was drawn', () => {
    const state = run(started(), delta('Shown.\n\nAlso shown'), { type: 'turn-ended' });
    expect(shown(state)).toEqual([
      ['Shown.', false],
      ['Also shown', true],
    ]);
    expect(state.unsaved).toEqual([{ type: 'assistant', text: 'Shown.\n\nAlso shown' }]);
    expect(state.committed).toBe('');
  });
});
