/**
 * What happens while the chat runs, for whoever shows it: each feed calls its listeners in turn.
 * The session and the host write to them; the front ends listen.
 */
import type { ServerRequestRecord } from '../vocabulary/server-requests.js';

class Feed<T> {
  private readonly listeners = new Set<(value: T) => void>();

  readonly notify = (value: T): void => {
    for (const listener of this.listeners) listener(value);
  };

  /** Returns the unsubscribe. */
  subscribe(listener: (value: T) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** Server state changes (the REPL's status bar). */
export class StatusFeed extends Feed<void> {}

/** Lines a server's announcements bring between turns (a watched resource changed). */
export class NoticeFeed extends Feed<string> {}

/** A server announced that its prompts or resources changed. */
export class OffersFeed extends Feed<void> {}

/** What became of each request a server made of the client (for `debug`). */
export class ServerRequestFeed extends Feed<ServerRequestRecord> {}
