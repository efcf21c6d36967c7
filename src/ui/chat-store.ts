/**
 * Holds the chat state for React and for key handlers. `getState` is current at once, so a
 * key that arrives before the next frame never sees a stale state; listeners hear of changes
 * once per tick, however many actions it took, so one event costs one render.
 *
 * The screen reads the state in two parts: the streaming reply's text (`getStreamed`), which
 * changes at every frame of a reply, and everything else (`getScreen`), which is the same object
 * while only that text grows. So a frame re-renders the streaming reply alone, not the screen.
 */
import type { ChatAction } from './chat-reducer.js';
import { reduceChat } from './chat-reducer.js';
import type { ChatState, ScreenState } from './chat-state.js';

/** True when `next` differs from `shown` in more than the streaming reply's text. */
function screenChanged(shown: ScreenState, next: ChatState): boolean {
  for (const key of Object.keys(next) as Array<keyof ChatState>) {
    if (key !== 'streamed' && next[key] !== shown[key]) return true;
  }
  return Object.keys(next).length !== Object.keys(shown).length;
}

export class ChatStore {
  private state: ChatState;
  private screen: ScreenState;
  private readonly listeners = new Set<() => void>();
  private notifyQueued = false;

  constructor(initial: ChatState) {
    this.state = initial;
    this.screen = initial;
  }

  readonly getState = (): ChatState => this.state;

  readonly getScreen = (): ScreenState => this.screen;

  readonly getStreamed = (): string => this.state.streamed;

  readonly dispatch = (action: ChatAction): void => {
    this.state = reduceChat(this.state, action);
    if (screenChanged(this.screen, this.state)) this.screen = this.state;
    if (this.notifyQueued) return;
    this.notifyQueued = true;
    queueMicrotask(() => {
      this.notifyQueued = false;
      for (const listener of this.listeners) listener();
    });
  };

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}
