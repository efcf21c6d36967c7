/**
 * Tells when the config file's content changes, as editors save it: some write it in place,
 * some write a new file and rename it over the old one (which a watch on the file itself
 * misses), and most touch it several times per save. So the directory is watched, events for
 * the file are gathered for a moment, and only a content that differs from the last one counts.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** A save's several events within this window are one change. */
const SETTLE_MS = 150;

function digest(file: string): string | undefined {
  try {
    return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  } catch {
    // Mid-rename, or removed: the next event (or none) says what became of it.
    return undefined;
  }
}

/** Calls `onChange` after each settled change of `file`'s content; returns the stop. */
export function watchConfigFile(file: string, onChange: () => void): () => void {
  let last = digest(file);
  let timer: NodeJS.Timeout | undefined;
  const settled = (): void => {
    timer = undefined;
    const now = digest(file);
    if (now === undefined || now === last) return;
    last = now;
    onChange();
  };
  let watcher: fs.FSWatcher;
  try {
    watcher = fs.watch(path.dirname(file), (_event, name) => {
      if (name !== null && name !== path.basename(file)) return;
      clearTimeout(timer);
      timer = setTimeout(settled, SETTLE_MS);
    });
  } catch {
    // A directory that cannot be watched (gone, no permission): /reload still works by hand.
    return () => undefined;
  }
  watcher.on('error', () => watcher.close());
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}
