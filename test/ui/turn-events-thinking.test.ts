/**
 * A reasoning model's events in the REPL's state: reasoning streams into the live area, folds to
 * one committed line when the answer starts (whole with debug), and each reply's counts set
 * the status bar's context gauge (until the conversation is cleared).
 */
import { describe, expect, it } from 'vitest';
import type { TurnEvent } from '../../src/vocabulary/types.js';
import { reduceChat, type ChatAction } from '../../src/ui/chat-reducer.js';
import { initialChatState, type ChatState } from '../../src/ui/chat-state.js';

const started = (): ChatState =>
  reduceChat(initialChatState({ model: 'qwen3', configSource: '/cfg.json' }, []), { type: 'turn-started' });
const run = (state: ChatState, ...actions: ChatAction[]): ChatState => actions.reduce(reduceChat, state);
const event = (turnEvent: TurnEvent, debug = false): ChatAction => ({ type: 'turn-event', event: turnEvent, debug });
const thought: TurnEvent = { type: 'thought', text: 'Rain is likely.', durationMs: 3240, step: 1 };

describe('reasoning in the REPL', () => {
  it('streams into the live area while nothing else of the reply has come', () => {
    const state = run(
      started(),
      event({ type: 'thinking-delta', text: 'Rain is ' }),
      event({ type: 'thinking-delta', text: 'likely.' }),
    );
    expect(state.activity).toEqual({ type: 'thinking', text: 'Rain is likely.' });
    expect(state.items.map((item) => item.type)).toEqual(['banner']);
  });

  it('folds to one line when the answer starts, and the answer streams below it', () => {
    const state = run(
      started(),
      event({ type: 'thinking-delta', text: 'Rain is likely.' }),
      event(thought),
      event({ type: 'assistant-delta', text: 'Take an umbrella.' }),
    );
    expect(state.items.at(-1)).toMatchObject({ type: 'info', text: 'thought for 3.2 s' });
    expect(state.activity).toEqual({ type: 'streaming' });
  });

  it('with debug on, the folded item holds the whole reasoning', () => {
    const state = run(started(), event({ type: 'thinking-delta', text: 'Rain is likely.' }), event(thought, true));
    expect(state.items.at(-1)).toMatchObject({ type: 'debug', text: 'thought for 3.2 s:\nRain is likely.' });
    expect(state.activity).toEqual({ type: 'waiting' });
  });

  it("sets the context gauge from each reply's counts, keeps it when a reply counted no prompt, drops it on clear", () => {
    const reply = (usage: Extract<TurnEvent, { type: 'model-reply' }>['usage']): ChatAction =>
      event({ type: 'model-reply', raw: '', step: 1, durationMs: 5, usage });
    let state = run(started(), reply({ inputTokens: 2300, outputTokens: 10, contextSize: 8192 }));
    expect(state.context).toEqual({ used: 2310, size: 8192 });
    state = run(state, reply({ outputTokens: 4, contextSize: 8192 }));
    expect(state.context).toEqual({ used: 2310, size: 8192 });
    state = run(state, { type: 'turn-ended' }, { type: 'command-done', result: { items: [], clear: true } });
    expect(state.context).toBeUndefined();
  });
});
