/**
 * A cache that keeps what was used recently and forgets the rest, for Ink's layout caches
 * (scripts/ink-caches.mjs puts it in place of Ink's own maps in the bundle). Ink caches every
 * text it has measured, wrapped or split into styled cells; a streamed reply is a new text at
 * every frame, so Ink's maps grow for as long as the program runs, and the cells of the live
 * area, cached for one frame only, are worked out again at every frame. This one keeps the
 * entries of two generations: when the newer holds `capacity` entries it becomes the older and
 * the oldest is dropped, and an entry read from the older is carried into the newer. What is
 * drawn at every frame stays cached; the memory it takes has a bound.
 */
export class RecentCache<K, V> {
  private newer = new Map<K, V>();
  private older = new Map<K, V>();

  constructor(private readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`capacity must be a positive integer, not ${capacity}`);
  }

  get(key: K): V | undefined {
    const fresh = this.newer.get(key);
    if (fresh !== undefined) return fresh;
    const kept = this.older.get(key);
    if (kept !== undefined) this.set(key, kept);
    return kept;
  }

  set(key: K, value: V): this {
    if (this.newer.size >= this.capacity) {
      this.older = this.newer;
      this.newer = new Map();
    }
    this.newer.set(key, value);
    return this;
  }

  /** Entries held, both generations (an entry carried forward counts once per generation it is in). */
  get size(): number {
    return this.newer.size + this.older.size;
  }
}
