/**
 * The tool pins: for each server, the tools the user relies on, each by hash and as it was, in a
 * file of its own in the state directory. A server is known by its name and what it is (its command
 * and arguments, or its URL), so another server given an old name is a server seen for the first
 * time, and the pins of the first stay as they were. A server seen for the first time is pinned as
 * it is (trust on first use). It reads, compares and writes; it never asks.
 * One file a server: a start reads only the servers it starts, however many directories and
 * servers the user has worked with (the file server is a new server in every directory).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ServerConfig } from '../config/types.js';
import { PARSED_ONCE } from '../config/schema.js';
import { writeFileAtomic } from '../shared/atomic-write.js';
import { errorMessage } from '../shared/errors.js';
import { stateDir, type StateEnv } from '../shared/state-dir.js';
import type { PinnedTool, ToolChange } from '../vocabulary/tool-pins.js';
import { compareTools, pinEntry } from './tool-pin-compare.js';
import { PIN_FILE_NAME, pinFileSchema, pinFileText, type PinnedServer } from './tool-pin-file.js';
import { migrateLegacyPins } from './tool-pin-legacy.js';
import { sha256 } from './trust-store.js';

/** The store's folder inside the state directory. */
export const TOOL_PINS_DIR_NAME = 'tool-pins';
/** Servers kept at most, the ones pinned longest ago dropped first when a new one is pinned. */
export const MAX_PINNED_SERVERS = 500;

export type PinCheck = { type: 'first-seen' } | { type: 'known'; changes: ToolChange[] };

/** Where the pins are kept for this environment: `$XDG_STATE_HOME/mcp-chat/tool-pins/`. */
export function toolPinsDir(env: StateEnv): string {
  return path.join(stateDir(env), TOOL_PINS_DIR_NAME);
}

/**
 * What the server is, beside its name: the command and arguments that start it (resolved, as
 * they run) or the URL it is reached at. Its environment and headers are not: a new token is the
 * same server. Hashed, so that a secret in an argument or a URL is not written down again.
 */
export function serverKey(config: ServerConfig): string {
  const what =
    config.kind === 'stdio'
      ? { name: config.name, command: config.command, args: config.args }
      : { name: config.name, url: config.url };
  return sha256(JSON.stringify(what));
}

export class ToolPinStore {
  /** Why a pin file on disk cannot be used (nothing is written over it then); undefined when it is fine or absent. */
  problem: string | undefined;

  /** Why pins kept the old way could not be carried over; looked at once a store, as they never come back. */
  private legacyProblem: { text: string | undefined } | undefined;

  constructor(readonly dir: string) {}

  /** The server's tools against its pins; a server seen for the first time is pinned as it is. */
  check(config: ServerConfig, tools: readonly PinnedTool[]): PinCheck {
    const read = this.read(config);
    if (read.type === 'known') return { type: 'known', changes: compareTools(read.entry.tools, tools) };
    if (read.type === 'absent') this.pin(config, tools, true);
    return { type: 'first-seen' };
  }

  /** The user accepts the server's tools as they are now: they replace its pins. Throws when they cannot be kept. */
  accept(config: ServerConfig, tools: readonly PinnedTool[]): void {
    const read = this.read(config);
    if (read.type === 'unusable') throw new Error(this.problem ?? `cannot read ${this.fileOf(config)}`);
    this.pin(config, tools, read.type === 'absent');
  }

  private fileOf(config: ServerConfig): string {
    return path.join(this.dir, `${serverKey(config)}.json`);
  }

  /** Read fresh each time, so a change made by another mcp-chat in between is kept. */
  private read(config: ServerConfig): { type: 'known'; entry: PinnedServer } | { type: 'absent' | 'unusable' } {
    this.legacyProblem ??= { text: migrateLegacyPins(this.dir) };
    this.problem = this.legacyProblem.text;
    const file = this.fileOf(config);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { type: 'absent' };
      this.problem = unpinned(config, `${file} cannot be read (${errorMessage(error)})`);
      return { type: 'unusable' };
    }
    let parsed: ReturnType<typeof pinFileSchema.safeParse>;
    try {
      parsed = pinFileSchema.safeParse(JSON.parse(text), PARSED_ONCE);
    } catch (error) {
      this.problem = unpinned(config, `${file} is not valid JSON (${errorMessage(error)})`);
      return { type: 'unusable' };
    }
    if (!parsed.success) {
      this.problem = unpinned(config, `${file} is not a tool pin file mcp-chat understands`);
      return { type: 'unusable' };
    }
    return { type: 'known', entry: parsed.data };
  }

  // Security: mode 0600 in a 0700 folder, written whole (atomic-write.ts): which servers a person uses is theirs alone.
  private pin(config: ServerConfig, tools: readonly PinnedTool[], isNew: boolean): void {
    const entry = { server: config.name, pinnedAt: new Date().toISOString(), tools: tools.map(pinEntry) };
    const file = this.fileOf(config);
    writeFileAtomic(file, pinFileText(entry));
    if (isNew) dropOldest(this.dir, file);
  }
}

/** A pin file that cannot be used is never written over: the server goes unpinned until it is removed. */
function unpinned(config: ServerConfig, why: string): string {
  return `${why}; the tools of ${config.name} are offered unpinned until it is removed`;
}

/** Past the bound, the servers whose pins were written longest ago go (the one just pinned stays). */
function dropOldest(dir: string, kept: string): void {
  const files = fs
    .readdirSync(dir)
    .filter((name) => PIN_FILE_NAME.test(name))
    .map((name) => path.join(dir, name));
  if (files.length <= MAX_PINNED_SERVERS) return;
  const byAge = files
    .filter((file) => file !== kept)
    .map((file) => ({ file, written: fs.statSync(file).mtimeMs }))
    .sort((a, b) => a.written - b.written);
  for (const { file } of byAge.slice(0, files.length - MAX_PINNED_SERVERS)) fs.rmSync(file, { force: true });
}
