/**
 * The session a chat is saving to: its name, when it began, its turns so far. After each turn the
 * front end hands it what the model will be sent again and what the screen has shown since the
 * last save, and it writes the whole session (atomically, through the store). The screen is kept
 * here, bounded, and not by the front end, which lets go of an item once it is drawn: a long
 * session's file, the time to write it after each turn, and the memory it takes stop growing.
 */
import type { ChatMessage } from '../vocabulary/types.js';
import { ExitCode, McpChatError, assertNever } from '../shared/errors.js';
import { SESSION_FORMAT, type SavedItem, type SavedSession } from './session-file.js';
import { automaticSessionName, checkSessionName } from './session-name.js';
import type { SessionStore } from './session-store.js';

/** Screen items kept in a session (about 500 turns with a tool call each): older ones are dropped. */
export const MAX_SAVED_ITEMS = 2_000;
/** Characters of the first message kept as the session's title. */
const TITLE_CHARS = 80;

/** What the screen showed: saved items, or the REPL's own (with ids, a banner that is not saved, a diff saved as its text). */
export type ScreenItem = SavedItem | { type: 'banner' } | { type: 'tool-changes'; text: string };

export interface TurnSnapshot {
  model: string;
  /** What the model is sent again when the session is resumed. */
  messages: readonly ChatMessage[];
  /** What the screen showed since the last save (or since the session was adopted or begun). */
  shown: readonly ScreenItem[];
  /** The turn ended with an answer (a failed or cancelled turn is saved, but not counted). */
  answered: boolean;
}

/** The screen as saved: no banner, no ids, no images (the screen shows a tool's images as a line). */
export function toSavedItems(screen: readonly ScreenItem[]): SavedItem[] {
  const saved = screen.flatMap((item): SavedItem[] => {
    switch (item.type) {
      case 'banner':
        return [];
      case 'tool': {
        const { isError, forModel, durationMs } = item.result;
        return [{ type: 'tool', call: item.call, result: { isError, forModel, durationMs } }];
      }
      case 'error':
        return [{ type: 'error', text: item.text, ...(item.hint !== undefined ? { hint: item.hint } : {}) }];
      case 'user':
      case 'assistant':
      case 'info':
      case 'debug':
        return [{ type: item.type, text: item.text }];
      case 'tool-changes':
        return [{ type: 'info', text: item.text }];
      default:
        return assertNever(item);
    }
  });
  return saved.slice(-MAX_SAVED_ITEMS);
}

function titleOf(messages: readonly ChatMessage[]): string {
  const first = messages.find((message) => message.role === 'user' && message.toolResult !== true);
  const line = first?.content.trim().split('\n')[0] ?? '';
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line;
}

export class SessionKeeper {
  private name: string;
  /** False for an automatic name: `/save <name>` then moves the session rather than copying it. */
  private named: boolean;
  private createdAt: string;
  private turns = 0;
  private title = '';
  /** The session as last saved or adopted: its screen is what the next save goes on from. */
  private last: SavedSession | undefined;

  constructor(
    readonly store: SessionStore,
    name?: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.named = name !== undefined;
    this.name = name === undefined ? automaticSessionName(this.now()) : checkSessionName(name);
    this.createdAt = this.now().toISOString();
  }

  get sessionName(): string {
    return this.name;
  }

  /** The session as last saved; undefined before the first save. */
  get saved(): SavedSession | undefined {
    return this.last;
  }

  /**
   * Saves the session after a turn; nothing while nothing has been said (a chat opened and closed).
   * The session is built now and written in the background: the promise says when it is on disk.
   */
  save(snapshot: TurnSnapshot): Promise<SavedSession | undefined> {
    if (!this.last && snapshot.messages.length === 0 && !snapshot.answered) return Promise.resolve(undefined);
    if (snapshot.answered) this.turns += 1;
    this.title ||= titleOf(snapshot.messages);
    const session: SavedSession = {
      format: SESSION_FORMAT,
      name: this.name,
      model: snapshot.model,
      createdAt: this.createdAt,
      updatedAt: this.now().toISOString(),
      turns: this.turns,
      title: this.title,
      messages: [...snapshot.messages],
      screen: [...(this.last?.screen ?? []), ...toSavedItems(snapshot.shown)].slice(-MAX_SAVED_ITEMS),
    };
    this.last = session;
    return this.store.saveInBackground(session).then(() => session);
  }

  /** The conversation changed between turns (`/compact`): saved again with it, the screen as it was. */
  resave(messages: readonly ChatMessage[]): Promise<SavedSession | undefined> {
    if (!this.last) return Promise.resolve(undefined);
    const session: SavedSession = { ...this.last, messages: [...messages], updatedAt: this.now().toISOString() };
    this.last = session;
    return this.store.saveInBackground(session).then(() => session);
  }

  /**
   * Carries on a saved session: later saves go to it, its turns counted on and its screen
   * extended by what the front end shows from now on.
   */
  adopt(saved: SavedSession): void {
    this.name = saved.name;
    this.named = true;
    this.createdAt = saved.createdAt;
    this.turns = saved.turns;
    this.title = saved.title;
    this.last = saved;
  }

  /**
   * `/save <name>`: the session is saved under `name` from now on. A session that only had an
   * automatic name is moved (its old file removed); a named one is copied, and the original stays.
   */
  async saveAs(name: string): Promise<SavedSession | undefined> {
    checkSessionName(name);
    // A save of the old name still on its way must land before the old file is removed, not after.
    await this.store.flush();
    if (name !== this.name && this.store.exists(name))
      throw new McpChatError(
        `a session named ${name} exists already`,
        ExitCode.runtime,
        `Pick another name, or /delete ${name} first.`,
      );
    const previous = this.name;
    const moved = !this.named && this.last !== undefined;
    this.name = name;
    this.named = true;
    const session = this.last ? { ...this.last, name, updatedAt: this.now().toISOString() } : undefined;
    if (session) {
      this.store.save(session);
      this.last = session;
    }
    if (moved && previous !== name) this.store.delete(previous);
    return session;
  }

  /** After `clear`: the next turn starts a new session; the one saved so far stays as it was. */
  startNew(): void {
    this.name = automaticSessionName(this.now());
    this.named = false;
    this.createdAt = this.now().toISOString();
    this.turns = 0;
    this.title = '';
    this.last = undefined;
  }
}
