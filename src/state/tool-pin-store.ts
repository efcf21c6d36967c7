/**
 * The tool pins: for each server, the tools the user relies on, each by hash and as it was, in one
 * JSON file in the state directory. A server is known by its name and what it is (its command and
 * arguments, or its URL), so another server given an old name is a server seen for the first time,
 * and the pins of the first stay as they were. A server seen for the first time is pinned as it is
 * (trust on first use). It reads, compares and writes; it never asks.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import type { ServerConfig } from '../config/types.js';
import { PARSED_ONCE } from '../config/schema.js';
import { writeFileAtomic } from '../shared/atomic-write.js';
import { errorMessage } from '../shared/errors.js';
import { stateDir, type StateEnv } from '../shared/state-dir.js';
import type { PinnedTool, ToolChange } from '../vocabulary/tool-pins.js';
import { compareTools, pinEntry } from './tool-pin-compare.js';
import { sha256 } from './trust-store.js';

/** The store's file name inside the state directory. */
export const TOOL_PINS_FILE_NAME = 'tool-pins.json';
/**
 * Servers kept at most, the ones pinned longest ago dropped first: a server whose arguments name
 * the working directory (the file server) is a new server in every directory, and the file is
 * read at every start.
 */
export const MAX_PINNED_SERVERS = 500;

const record = z.record(z.string(), z.unknown());
const toolSchema = z.object({
  name: z.string(),
  description: z.string(),
  inputSchema: record,
  annotations: record.optional(),
  instructions: z.string().optional(),
});
const serverSchema = z.object({
  server: z.string(),
  pinnedAt: z.string(),
  // A list, not a record by name: tool names are the server's words, `__proto__` among them.
  tools: z.array(z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/), tool: toolSchema })),
});
const storeSchema = z.object({
  version: z.literal(1),
  servers: z.record(z.string().regex(/^[0-9a-f]{64}$/), serverSchema),
});
type StoreFile = z.infer<typeof storeSchema>;

export type PinCheck = { type: 'first-seen' } | { type: 'known'; changes: ToolChange[] };

/** Where the pins are kept for this environment: `$XDG_STATE_HOME/mcp-chat/tool-pins.json`. */
export function toolPinsFile(env: StateEnv): string {
  return path.join(stateDir(env), TOOL_PINS_FILE_NAME);
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
  /** Why the file on disk cannot be used (nothing is written over it then); undefined when it is fine or absent. */
  problem: string | undefined;

  constructor(readonly file: string) {}

  /** The server's tools against its pins; a server seen for the first time is pinned as it is. */
  check(config: ServerConfig, tools: readonly PinnedTool[]): PinCheck {
    const store = this.read();
    const known = store?.servers[serverKey(config)];
    if (known) return { type: 'known', changes: compareTools(known.tools, tools) };
    if (store) this.write(pinned(store, config, tools));
    return { type: 'first-seen' };
  }

  /** The user accepts the server's tools as they are now: they replace its pins. Throws when they cannot be kept. */
  accept(config: ServerConfig, tools: readonly PinnedTool[]): void {
    const store = this.read();
    if (!store) throw new Error(this.problem ?? `cannot read ${this.file}`);
    this.write(pinned(store, config, tools));
  }

  /** Read fresh each time, so a change made by another mcp-chat in between is kept; undefined when unusable. */
  private read(): StoreFile | undefined {
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, servers: {} };
      this.problem = `cannot read ${this.file}: ${errorMessage(error)}`;
      return undefined;
    }
    let parsed: ReturnType<typeof storeSchema.safeParse>;
    try {
      parsed = storeSchema.safeParse(JSON.parse(text), PARSED_ONCE);
    } catch (error) {
      this.problem = `${this.file} is not valid JSON (${errorMessage(error)})`;
      return undefined;
    }
    if (!parsed.success) {
      this.problem = `${this.file} is not a tool pin file mcp-chat understands`;
      return undefined;
    }
    return parsed.data;
  }

  // Security: mode 0600, written whole (atomic-write.ts): which servers a person uses is theirs alone.
  private write(store: StoreFile): void {
    writeFileAtomic(this.file, `${JSON.stringify(store, null, 2)}\n`);
  }
}

/** The store with the server's pins replaced by `tools`, and the oldest servers past the bound dropped. */
function pinned(store: StoreFile, config: ServerConfig, tools: readonly PinnedTool[]): StoreFile {
  const entry = { server: config.name, pinnedAt: new Date().toISOString(), tools: tools.map(pinEntry) };
  const others = Object.entries(store.servers).filter(([key]) => key !== serverKey(config));
  const kept = others.sort(([, a], [, b]) => b.pinnedAt.localeCompare(a.pinnedAt)).slice(0, MAX_PINNED_SERVERS - 1);
  return { version: 1, servers: Object.fromEntries([[serverKey(config), entry], ...kept]) };
}
