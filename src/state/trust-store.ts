/**
 * The trust store: which working-directory files (`mcp_config.json`, `.env`) the user has
 * trusted, each by absolute path and the SHA-256 of its content, in one JSON file in the state
 * directory. It reads, hashes and writes; it never asks. An edited file no longer matches.
 */
import fs from 'node:fs';
import * as z from 'zod';
import { writeFileAtomic } from '../shared/atomic-write.js';
import { createHash } from 'node:crypto';
import { errorMessage } from '../shared/errors.js';
import { readRegularFile } from '../config/regular-file.js';
import { PARSED_ONCE } from '../config/schema.js';

/** The store's file name inside the state directory. */
export const TRUST_FILE_NAME = 'trusted.json';

/** A file as it is now: where it is and what it holds (the bytes that are hashed are the bytes used). */
export interface FileSnapshot {
  path: string;
  content: Buffer;
}

export interface TrustEntry {
  /** Absolute path of the trusted file. */
  path: string;
  /** SHA-256 of the content that was trusted, hex. */
  sha256: string;
  /** ISO 8601. */
  trustedAt: string;
}

const storeSchema = z.object({
  version: z.literal(1),
  files: z.record(z.string(), z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/), trustedAt: z.string() })),
});
type StoreFile = z.infer<typeof storeSchema>;

export function sha256(content: Buffer | string): string {
  return createHash('sha256').update(content).digest('hex');
}

/** Reads a file whole, or undefined when it does not exist or is not a regular file. */
export function snapshot(file: string): FileSnapshot | undefined {
  try {
    // Not a regular file, or too large: not a config or .env anyone meant; it is not loaded.
    return { path: file, content: readRegularFile(file) };
  } catch {
    return undefined;
  }
}

export class TrustStore {
  /** Why the file on disk could not be used (it was then treated as empty); undefined when it was fine or absent. */
  problem: string | undefined;

  constructor(readonly file: string) {}

  /** True when `file`'s path is trusted with exactly this content. */
  isTrusted(file: FileSnapshot): boolean {
    const entry = this.read().files[file.path];
    return entry !== undefined && entry.sha256 === sha256(file.content);
  }

  list(): TrustEntry[] {
    return Object.entries(this.read().files).map(([file, entry]) => ({ path: file, ...entry }));
  }

  /** Trusts each file as it is now (replacing an older hash of the same path); returns the new entries. */
  trust(files: readonly FileSnapshot[]): TrustEntry[] {
    const store = this.read();
    const trustedAt = new Date().toISOString();
    const added = files.map((file) => ({ path: file.path, sha256: sha256(file.content), trustedAt }));
    for (const entry of added) store.files[entry.path] = { sha256: entry.sha256, trustedAt };
    this.write(store);
    return added;
  }

  /** Forgets these paths; returns the ones that were remembered. */
  forget(paths: readonly string[]): string[] {
    const store = this.read();
    const forgotten = paths.filter((file) => store.files[file] !== undefined);
    if (forgotten.length === 0) return [];
    for (const file of forgotten) delete store.files[file];
    this.write(store);
    return forgotten;
  }

  /** Read fresh each time, so a change made by another mcp-chat in between is kept. */
  private read(): StoreFile {
    const empty: StoreFile = { version: 1, files: {} };
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        this.problem = `cannot read ${this.file}: ${errorMessage(error)}`;
      return empty;
    }
    let parsed: ReturnType<typeof storeSchema.safeParse>;
    try {
      parsed = storeSchema.safeParse(JSON.parse(text), PARSED_ONCE);
    } catch (error) {
      this.problem = `${this.file} is not valid JSON (${errorMessage(error)}); treated as empty`;
      return empty;
    }
    if (!parsed.success) {
      this.problem = `${this.file} is not a trust file mcp-chat understands; treated as empty`;
      return empty;
    }
    // A null prototype: a path such as `__proto__` is data here, never a property of Object.
    return { version: 1, files: Object.assign(Object.create(null) as StoreFile['files'], parsed.data.files) };
  }

  // Security: mode 0600, since which directories a person works in is theirs alone.
  private write(store: StoreFile): void {
    writeFileAtomic(this.file, `${JSON.stringify(store, null, 2)}\n`);
  }
}
