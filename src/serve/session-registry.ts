/**
 * The sessions the server holds, by id (the saved session's name). A new connection starts a
 * session; `?session=ID` joins the live one, or carries on the one saved under that name, after a
 * restart too. A session with no connection and no turn running is let go (its servers stopped):
 * it stays on disk, in the saved-session store, and is opened again when someone asks for it.
 */
import { openChatSession } from '../session/open-chat-session.js';
import type { Runtime } from '../session/runtime.js';
import { runtimeForSession } from '../session/session-resume.js';
import { errorMessage } from '../shared/errors.js';
import type { SavedSession } from '../state/session-file.js';
import { SessionKeeper } from '../state/session-keeper.js';
import { sessionNameProblem } from '../state/session-name.js';
import type { SessionStore } from '../state/session-store.js';
import { LiveSession } from './live-session.js';
import type { WireErrorKind } from './protocol.js';

/** Why no session could be opened for a connection, said to it before it is closed. */
export class SessionRefusal extends Error {
  constructor(
    readonly kind: WireErrorKind,
    message: string,
  ) {
    super(message);
  }
}

export interface RegistryOptions {
  runtime: Runtime;
  store: SessionStore;
  /** `--model` was given: it wins over a resumed session's own. */
  modelGiven: boolean;
  /** Sessions held at once: each runs its own servers. */
  maxSessions: number;
}

export class SessionRegistry {
  private readonly live = new Map<string, LiveSession>();

  constructor(private readonly options: RegistryOptions) {}

  get size(): number {
    return this.live.size;
  }

  sessions(): LiveSession[] {
    return [...this.live.values()];
  }

  /** The session a connection asked for (none: a new one); a refusal says why there is none. */
  open(id: string | undefined): LiveSession {
    const existing = id === undefined ? undefined : this.live.get(id);
    if (existing) return existing;
    if (this.live.size >= this.options.maxSessions)
      throw new SessionRefusal(
        'too-many-sessions',
        `this server holds ${this.options.maxSessions} sessions at once; close one, or join one with ?session=ID`,
      );
    const session = id === undefined ? this.start() : this.resume(id);
    this.live.set(session.id, session);
    session.onTurnEnd = () => this.release(session);
    return session;
  }

  /** Lets the session go when nothing holds it any more. */
  release(session: LiveSession): void {
    if (!session.idle || this.live.get(session.id) !== session) return;
    this.live.delete(session.id);
    void session.close();
  }

  async closeAll(): Promise<void> {
    // A connection being accepted as the stop began may open a session meanwhile: it is closed too.
    while (this.live.size > 0) {
      const sessions = [...this.live.values()];
      this.live.clear();
      await Promise.all(sessions.map((session) => session.close()));
    }
    await this.options.store.flush();
  }

  private start(): LiveSession {
    return this.build(this.options.runtime, new SessionKeeper(this.options.store));
  }

  private resume(id: string): LiveSession {
    const { store, runtime, modelGiven } = this.options;
    if (sessionNameProblem(id) !== undefined || !store.exists(id))
      throw new SessionRefusal('unknown-session', `no saved session named ${JSON.stringify(id)}`);
    let saved: SavedSession;
    try {
      saved = store.load(id);
    } catch (error) {
      throw new SessionRefusal('unknown-session', errorMessage(error));
    }
    return this.build(runtimeForSession(runtime, saved, modelGiven), new SessionKeeper(store), saved);
  }

  private build(runtime: Runtime, keeper: SessionKeeper, saved?: SavedSession): LiveSession {
    // Adopted first, so the session's log lines carry its saved name from the start.
    if (saved) keeper.adopt(saved);
    const log = runtime.log.child({ sessionId: keeper.sessionName });
    const { session, host } = openChatSession({ ...runtime, log }, keeper);
    if (saved) session.restoreConversation(saved);
    const ready = host.start().then(() => {
      for (const status of host.statuses())
        if (status.state === 'failed') log.warn({ server: status.name }, status.lastError ?? 'failed to start');
    });
    return new LiveSession(keeper.sessionName, session, host, log, ready, saved?.screen);
  }
}
