/**
 * The store the screen reads: the streaming reply's text apart from the rest, so a frame of a
 * streaming reply changes the one and leaves the other the same object (React then re-renders
 * the reply alone); listeners hear once per tick.
 */
import { describe, expect, it } from 'vitest';
import type { TurnEvent } from '../../src/vocabulary/types.js';
import type { ChatAction } from '../../src/ui/chat-reducer.js';
import { initialChatState } from '../../src/ui/chat-state.js';
import { ChatStore } from '../../src/ui/chat-store.js';

const event = (turnEvent: TurnEvent): ChatAction => ({ type: 'turn-event', event: turnEvent, debug: false });
const delta = (text: string): ChatAction => event({ type: 'assistant-delta', text });
const newStore = (): ChatStore => new ChatStore(initialChatState({ model: 'llama3.2', configSource: '/cfg.json' }, []));

describe('chat store', () => {
  it('while a reply streams, the screen is the same object and only the streamed text changes', () => {
    const store = newStore();
    store.dispatch({ type: 'turn-started' });
    store.dispatch(delta('Hel'));
    const streaming = store.getScreen();
    expect(streaming.activity).toEqual({ type: 'streaming' });
    store.dispatch(delta('lo'));
    store.dispatch(delta(', world.'));
    expect(store.getScreen()).toBe(streaming);
    expect(store.getStreamed()).toBe('Hello, world.');
    expect(store.getState().streamed).toBe('Hello, world.');
  });

  it('a block that ends goes to the history in a new screen; the next block streams in that one', () => {
    const store = newStore();
    store.dispatch({ type: 'turn-started' });
    store.dispatch(delta('First block.'));
    const streaming = store.getScreen();
    store.dispatch(delta('\n\nSecond'));
    const committed = store.getScreen();
    expect(committed).not.toBe(streaming);
    expect(committed.items.at(-1)).toMatchObject({ type: 'assistant', text: 'First block.' });
    store.dispatch(delta(' block goes on'));
    expect(store.getScreen()).toBe(committed);
    expect(store.getStreamed()).toBe('Second block goes on');
  });

  it('any other change makes a new screen, with the state as it is now', () => {
    const store = newStore();
    store.dispatch({ type: 'turn-started' });
    store.dispatch(delta('Thinking aloud'));
    const streaming = store.getScreen();
    store.dispatch({ type: 'servers', servers: [{ name: 'calculator', kind: 'stdio', state: 'ready', toolCount: 3 }] });
    expect(store.getScreen()).not.toBe(streaming);
    expect(store.getScreen()).toBe(store.getState());
    store.dispatch(event({ type: 'final', answer: 'Thinking aloud', steps: 1, toolCalls: [] }));
    expect(store.getScreen().items.at(-1)).toMatchObject({ type: 'assistant', text: 'Thinking aloud' });
    expect(store.getStreamed()).toBe('');
  });

  it('listeners hear once per tick, however many actions it took', async () => {
    const store = newStore();
    let heard = 0;
    store.subscribe(() => heard++);
    store.dispatch({ type: 'turn-started' });
    for (const text of ['a', 'b', 'c']) store.dispatch(delta(text));
    expect(heard).toBe(0);
    await Promise.resolve();
    expect(heard).toBe(1);
  });
});
