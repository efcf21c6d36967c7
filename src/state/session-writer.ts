/**
 * Writes session files off the turn's path. A chat saves its session after every turn; the
 * file is written whole (temporary file, fsync, rename: a reader never sees half of it), which
 * costs the disk several milliseconds that the user should not wait for. Writes run one at a
 * time in the background; a save that comes while an earlier one of the same file still waits
 * replaces it, so a slow disk never builds a queue of stale sessions.
 */
import { writeFileAtomicAsync } from '../shared/atomic-write.js';

interface Queued {
  text: string;
  resolve: () => void;
  reject: (error: unknown) => void;
  promise: Promise<void>;
}

export class SessionWriter {
  private readonly queue = new Map<string, Queued>();
  private draining: Promise<void> | undefined;

  /** Resolves once `text` (or a later save of the same file) is on disk; rejects if that write failed. */
  write(file: string, text: string): Promise<void> {
    const waiting = this.queue.get(file);
    if (waiting) {
      waiting.text = text;
      return waiting.promise;
    }
    let resolve: () => void = () => undefined;
    let reject: (error: unknown) => void = () => undefined;
    const promise = new Promise<void>((yes, no) => {
      resolve = yes;
      reject = no;
    });
    // A caller may not wait for the write: its failure must not become an unhandled rejection.
    promise.catch(() => undefined);
    this.queue.set(file, { text, resolve, reject, promise });
    this.draining ??= this.drain();
    return promise;
  }

  /** Resolves once every write asked for so far has ended (written or failed). */
  async flush(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private async drain(): Promise<void> {
    for (let next = this.queue.entries().next(); !next.done; next = this.queue.entries().next()) {
      const [file, queued] = next.value;
      this.queue.delete(file);
      try {
        await writeFileAtomicAsync(file, queued.text);
        queued.resolve();
      } catch (error) {
        queued.reject(error);
      }
    }
    this.draining = undefined;
  }
}
