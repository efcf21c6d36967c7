/**
 * The local paper cache: `<papersDir>/<topic>/papers_info.json`, an object keyed by paper id whose
 * papers also record the topics they were found for. Saving is read-merge-write under a per-topic
 * lock file and lands atomically, so concurrent searches from any number of processes lose no
 * papers and never leave half a file. Ids are data, never property names: the file is read into a
 * Map, so "constructor" or "__proto__" are ordinary ids.
 */
import type { Dirent } from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { normalisePaperId, type Paper, PaperSchema, unversionedId } from './atom.js';
import { errorCode, LockBusyError, type LockTiming, withLock, writeAtomic } from './locked-file.js';

export type { LockTiming } from './locked-file.js';

export const CACHE_FILE = 'papers_info.json';

/** The topic cannot name a folder (nothing left after removing unsafe characters). */
export class TopicError extends Error {}
/** The cache could not be read or written; the message says which file and what to do. */
export class CacheError extends Error {}

/** A saved paper and every topic (as `topicLabel` gives it) a search found it for. */
export const CachedPaperSchema = PaperSchema.extend({ topics: z.array(z.string()).default([]) });
export type CachedPaper = z.infer<typeof CachedPaperSchema>;

export interface SaveResult {
  file: string;
  added: number;
  total: number;
  /** Other topics whose papers share this folder (their names differ only in case or punctuation). */
  sharedWith: string[];
  /** For each paper saved before under other topics of this folder, those topics; it keeps them all. */
  alsoUnder: Map<string, string[]>;
}

export interface FoundPaper {
  paper: CachedPaper;
  /** The folder the paper was read from. */
  topic: string;
}

type CacheFile = Map<string, CachedPaper>;

const DEFAULT_LOCK_TIMING: LockTiming = { staleMs: 10_000, waitMs: 15_000 };
/** Longest folder name kept from a topic; file systems allow 255 bytes and UTF-8 letters take up to 4. */
const MAX_TOPIC_CHARS = 60;

/**
 * The folder name for a topic: lowercase, whitespace → "_", only letters, digits, "_" and "-".
 * "Quantum Computing" → "quantum_computing"; "../../etc" → "etc".
 */
export function topicFolderName(topic: string): string {
  // Security: an allow-list of characters (letters, digits, "_", "-"), applied after NFKC folds
  // look-alikes such as "／" into "/", so the name can never be "." or "..", hold a separator or
  // NUL, or be absolute: it always names a folder directly inside papersDir.
  const name = topic
    .normalize('NFKC')
    .toLowerCase()
    .trim()
    .replace(/\s+/g, '_')
    .replace(/[^\p{L}\p{N}_-]/gu, '')
    .replace(/_+/g, '_')
    .replace(/^[_-]+|[_-]+$/g, '')
    .slice(0, MAX_TOPIC_CHARS);
  if (name === '')
    throw new TopicError(`topic "${topic}" has no letters or digits; use words such as "quantum computing"`);
  return name;
}

/** The topic as recorded on its papers: "Del  Maestro" and "del maestro" are one topic, "C++" and "C" two. */
export function topicLabel(topic: string): string {
  return topic.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

export class PaperCache {
  readonly root: string;

  constructor(
    papersDir: string,
    private readonly lockTiming: LockTiming = DEFAULT_LOCK_TIMING,
  ) {
    this.root = path.resolve(papersDir);
  }

  topicFile(topic: string): string {
    const folder = path.join(this.root, topicFolderName(topic));
    // Security: defence in depth; the allow-list above already guarantees this.
    if (path.dirname(folder) !== this.root)
      throw new TopicError(`topic "${topic}" does not name a folder inside ${this.root}`);
    return path.join(folder, CACHE_FILE);
  }

  /**
   * Merges `papers` into the topic's file. A paper seen again gets the fresh metadata and keeps every
   * topic it was found for, so a later topic sharing the folder never takes it from an earlier one.
   */
  async save(topic: string, papers: readonly Paper[]): Promise<SaveResult> {
    const file = this.topicFile(topic);
    const label = topicLabel(topic);
    await fsp.mkdir(path.dirname(file), { recursive: true });
    return lockedFor(file, this.lockTiming, async () => {
      const merged: CacheFile = (await readCacheFile(file)) ?? new Map();
      const alsoUnder = new Map<string, string[]>();
      let added = 0;
      for (const paper of papers) {
        const before = merged.get(paper.id);
        if (before === undefined) added += 1;
        const earlier = before?.topics ?? [];
        const others = earlier.filter((other) => other !== label);
        if (others.length > 0) alsoUnder.set(paper.id, others);
        merged.set(paper.id, { ...paper, topics: [...others, label] });
      }
      // Object.fromEntries defines each id as an own property, "__proto__" included.
      await writeAtomic(file, `${JSON.stringify(Object.fromEntries(merged), null, 2)}\n`);
      const sharedWith = [...new Set([...merged.values()].flatMap((paper) => paper.topics))].filter(
        (other) => other !== label,
      );
      return { file, added, total: merged.size, sharedWith, alsoUnder };
    });
  }

  /**
   * Looks in every topic folder; an exact id wins over the same paper at another version. The
   * paper's topics are those of every folder that holds it.
   */
  async find(paperId: string): Promise<FoundPaper | undefined> {
    const wanted = normalisePaperId(paperId);
    const topics = await this.readAllTopics();
    const exact = topics.flatMap(([topic, papers]) => matching(topic, papers.get(wanted)));
    const base = unversionedId(wanted);
    const found =
      exact.length > 0
        ? exact
        : topics.flatMap(([topic, papers]) =>
            matching(
              topic,
              [...papers.values()].find((candidate) => unversionedId(candidate.id) === base),
            ),
          );
    const [first] = found;
    if (first === undefined) return undefined;
    const sameId = found.filter((item) => item.paper.id === first.paper.id);
    const allTopics = [...new Set(sameId.flatMap((item) => item.paper.topics))];
    return { paper: { ...first.paper, topics: allTopics }, topic: first.topic };
  }

  private async readAllTopics(): Promise<Array<[string, CacheFile]>> {
    let entries: Dirent[];
    try {
      entries = await fsp.readdir(this.root, { withFileTypes: true });
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return [];
      throw error;
    }
    const topics: Array<[string, CacheFile]> = [];
    // Security: symbolic links are not directories here, so a planted link is never followed.
    for (const entry of entries.filter((item) => item.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
      try {
        const papers = await readCacheFile(path.join(this.root, entry.name, CACHE_FILE));
        if (papers) topics.push([entry.name, papers]);
      } catch (error) {
        // One damaged topic must not hide the papers saved under the others.
        if (!(error instanceof CacheError)) throw error;
        process.stderr.write(`research: skipping ${error.message}\n`);
      }
    }
    return topics;
  }
}

function matching(topic: string, paper: CachedPaper | undefined): FoundPaper[] {
  if (paper === undefined) return [];
  // A file written before topics were recorded: its folder is the best name there is.
  return [{ paper: paper.topics.length > 0 ? paper : { ...paper, topics: [topic] }, topic }];
}

async function lockedFor<T>(file: string, timing: LockTiming, critical: () => Promise<T>): Promise<T> {
  try {
    return await withLock(`${file}.lock`, timing, critical);
  } catch (error) {
    if (error instanceof LockBusyError) throw new CacheError(error.message);
    throw error;
  }
}

async function readCacheFile(file: string): Promise<CacheFile | undefined> {
  let text: string;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CacheError(`${file} is not valid JSON; fix or delete it, then search again`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new CacheError(`${file} is not a paper cache (not an object keyed by paper id); fix or delete it`);
  // Security: JSON.parse makes every key an own property ("__proto__" too); they go into a Map,
  // never onto an object where an id could reach Object.prototype.
  const papers: CacheFile = new Map();
  for (const [id, value] of Object.entries(json)) {
    const parsed = CachedPaperSchema.safeParse(value);
    if (!parsed.success)
      throw new CacheError(`${file} is not a paper cache (${parsed.error.issues[0]?.message}); fix or delete it`);
    papers.set(id, parsed.data);
  }
  return papers;
}
