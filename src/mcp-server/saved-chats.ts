/**
 * The `session` of a `chat` call: a saved conversation, carried on and saved again with the call's
 * exchange, as `ask --session` does. One call at a time holds a name, so two callers never write
 * one session's turns over each other.
 */
import type { SavedSession } from '../state/session-file.js';
import { SessionKeeper } from '../state/session-keeper.js';
import { checkSessionName } from '../state/session-name.js';
import { SessionStore } from '../state/session-store.js';

export interface HeldChat {
  keeper: SessionKeeper;
  /** The session as saved before this call; undefined when the name is new. */
  saved: SavedSession | undefined;
  release: () => void;
}

export class SavedChats {
  private store: SessionStore | undefined;
  private readonly held = new Set<string>();

  /** Holds the named session for one call; throws (the caller's error) when it cannot. */
  hold(name: string): HeldChat {
    checkSessionName(name);
    if (this.held.has(name)) throw new Error(`session ${name} is in use by another call: wait for it to end`);
    this.store ??= SessionStore.open();
    const saved = this.store.exists(name) ? this.store.load(name) : undefined;
    this.held.add(name);
    return { keeper: new SessionKeeper(this.store, name), saved, release: () => this.held.delete(name) };
  }
}
