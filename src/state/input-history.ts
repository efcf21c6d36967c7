/**
 * The lines typed in earlier chats, for ↑ and Ctrl+R: one JSON string per line in
 * `$XDG_STATE_HOME/mcp-chat/input-history` (mode 0600), newest last. Policy: bounded to the last
 * `MAX_INPUT_HISTORY` lines; lines that look like secrets, and huge pastes, are never written;
 * each line is appended (chats open at once each add theirs), and the file is rewritten whole,
 * atomically, once it holds twice the bound. History is a convenience: a damaged line is skipped
 * and a write that fails is logged, never a reason for the chat to stop.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../shared/atomic-write.js';
import type { Logger } from '../shared/log.js';
import { stateDir, type StateEnv } from '../shared/state-dir.js';
import { looksSecret } from './secret-lines.js';

/** Lines kept across runs: a few weeks of use, and a file small enough to read at every start. */
export const MAX_INPUT_HISTORY = 500;
/** A longer input is a paste (a document, a log), not a line anyone recalls; it is not written. */
const MAX_LINE_CHARS = 10_000;
const FILE_NAME = 'input-history';

export class InputHistory {
  /** Lines in the file as far as this process knows (others may append too): when to compact. */
  private lines = 0;

  constructor(
    readonly file: string,
    private readonly log?: Logger,
  ) {}

  static open(env: StateEnv = process.env, log?: Logger): InputHistory {
    return new InputHistory(path.join(stateDir(env), FILE_NAME), log);
  }

  /** The remembered lines, oldest first, each once (at its latest place). */
  load(): string[] {
    const entries = this.read();
    this.lines = entries.length;
    // Filtered again on the way in: a file written before the detector learnt a shape keeps no secret in ↑.
    return latestOnce(entries.filter((entry) => !looksSecret(entry))).slice(-MAX_INPUT_HISTORY);
  }

  /** Remembers a line typed at the prompt; false when it is not kept (blank, too long, or like a secret). */
  add(line: string): boolean {
    // Security: a token pasted at the prompt must not outlive the chat in a file.
    if (line.trim() === '' || line.length > MAX_LINE_CHARS || looksSecret(line)) return false;
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      fs.appendFileSync(this.file, `${JSON.stringify(line)}\n`, { mode: 0o600 });
      this.lines += 1;
      if (this.lines > 2 * MAX_INPUT_HISTORY) this.compact();
      return true;
    } catch (error) {
      this.log?.warn({ err: error, file: this.file }, 'input history not saved');
      return false;
    }
  }

  /** Keeps the last `MAX_INPUT_HISTORY` distinct lines: a line another chat appends meanwhile may be lost. */
  private compact(): void {
    const kept = latestOnce(this.read()).slice(-MAX_INPUT_HISTORY);
    writeFileAtomic(this.file, kept.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
    this.lines = kept.length;
  }

  private read(): string[] {
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch (error) {
      if (!(error instanceof Error && 'code' in error && error.code === 'ENOENT'))
        this.log?.warn({ err: error, file: this.file }, 'input history not read');
      return [];
    }
    return text.split('\n').flatMap(parseLine);
  }
}

function parseLine(line: string): string[] {
  if (line === '') return [];
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'string' ? [value] : [];
  } catch {
    return [];
  }
}

/** Each line once, where it was typed last, order kept. */
function latestOnce(entries: readonly string[]): string[] {
  const last = new Map<string, number>();
  entries.forEach((entry, index) => last.set(entry, index));
  return entries.filter((entry, index) => last.get(entry) === index);
}
