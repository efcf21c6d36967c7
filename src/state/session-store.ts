/**
 * The saved sessions: one file per session in `$XDG_STATE_HOME/mcp-chat/sessions/`, named after
 * the session. Policy: last writer wins. Every save writes the whole file to a temporary file and
 * renames it over the old one, so a reader (or a crash) never sees half a file and two processes
 * saving one session never tear it; the later save replaces the earlier one. No lock: a chat left
 * open must never keep another from saving, and a crashed one must never leave a stale lock.
 * A chat's saves after its turns go through `saveInBackground`, so the turn never waits for the disk.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../shared/atomic-write.js';
import { ExitCode, McpChatError, errorMessage } from '../shared/errors.js';
import { stateDir, type StateEnv } from '../shared/state-dir.js';
import { parseSession, serializeSession, type SavedSession } from './session-file.js';
import { checkSessionName, LATEST, sessionNameProblem } from './session-name.js';
import { SessionWriter } from './session-writer.js';

const SUFFIX = '.json';

/** What lists show of a session, without its messages. */
export type SessionSummary = Pick<SavedSession, 'name' | 'model' | 'createdAt' | 'updatedAt' | 'turns' | 'title'>;

/** A file in the directory that could not be listed, and why. */
export interface SessionProblem {
  name: string;
  message: string;
}

export class SessionStore {
  private readonly writer = new SessionWriter();

  constructor(readonly dir: string) {}

  /** The store of the state directory found from `env`. */
  static open(env: StateEnv = process.env): SessionStore {
    return new SessionStore(path.join(stateDir(env), 'sessions'));
  }

  /** The file of a session; a usage error for a name that is not a valid one. */
  file(name: string): string {
    const file = path.join(this.dir, `${checkSessionName(name)}${SUFFIX}`);
    // Security: the name check already rules out separators and `..`; this is the backstop it must never need.
    if (path.dirname(file) !== path.resolve(this.dir)) throw new McpChatError(`session name escapes ${this.dir}`);
    return file;
  }

  exists(name: string): boolean {
    return fs.existsSync(this.file(name));
  }

  save(session: SavedSession): void {
    writeFileAtomic(this.file(session.name), serializeSession(session));
  }

  /** Serialises now, writes in the background; resolves once on disk (a later save of it may replace this one). */
  saveInBackground(session: SavedSession): Promise<void> {
    return this.writer.write(this.file(session.name), serializeSession(session));
  }

  /** Resolves once every background save has ended: before a move or delete, and before the process exits. */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  /** The session called `name`, or the most recently saved one for `latest`. */
  load(name: string): SavedSession {
    const resolved = name === LATEST ? this.latestName() : name;
    const file = this.file(resolved);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (error) {
      if (isMissing(error))
        throw new McpChatError(`no session named ${resolved}`, ExitCode.runtime, 'mcp-chat sessions lists them.');
      throw new McpChatError(`cannot read session file ${file}: ${errorMessage(error)}`);
    }
    return parseSession(text, file);
  }

  /** Deletes the session's file; false when there was none. */
  delete(name: string): boolean {
    const file = this.file(name);
    if (!fs.existsSync(file)) return false;
    fs.rmSync(file);
    return true;
  }

  /** Every session, most recently saved first, and the files that could not be read. */
  list(): { sessions: SessionSummary[]; problems: SessionProblem[] } {
    const sessions: SessionSummary[] = [];
    const problems: SessionProblem[] = [];
    for (const name of this.names()) {
      try {
        const { model, createdAt, updatedAt, turns, title } = this.load(name);
        sessions.push({ name, model, createdAt, updatedAt, turns, title });
      } catch (error) {
        problems.push({ name, message: errorMessage(error) });
      }
    }
    sessions.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
    return { sessions, problems };
  }

  /** Names of the session files present; other files (temporary ones among them) are not sessions. */
  private names(): string[] {
    let entries: string[];
    try {
      entries = fs.readdirSync(this.dir);
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    return entries
      .filter((entry) => entry.endsWith(SUFFIX))
      .map((entry) => entry.slice(0, -SUFFIX.length))
      .filter((name) => sessionNameProblem(name) === undefined);
  }

  /** The session written last, by the file's time: found without reading every session. */
  private latestName(): string {
    const times = this.names().map((name) => ({ name, mtimeMs: fs.statSync(this.file(name)).mtimeMs }));
    const latest = times.sort((a, b) => b.mtimeMs - a.mtimeMs)[0];
    if (!latest)
      throw new McpChatError('no saved sessions yet', ExitCode.runtime, 'A chat is saved after its first answer.');
    return latest.name;
  }
}

function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}
