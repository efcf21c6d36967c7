/**
 * What a new configuration changes in the running set of servers: the ones it adds, the ones it
 * removes, and the ones whose entry changed (restarted with the new one). A server whose entry
 * is the same is left alone, connection and all.
 */
import type { ServerConfig } from '../config/types.js';

export interface ServerSetChange {
  added: ServerConfig[];
  removed: string[];
  changed: ServerConfig[];
}

/** Entries are compared as resolved (variables expanded, paths absolute), key order and all. */
const sameEntry = (a: ServerConfig, b: ServerConfig): boolean => JSON.stringify(a) === JSON.stringify(b);

export function serverSetChange(running: ServerConfig[], next: ServerConfig[]): ServerSetChange {
  const before = new Map(running.map((config) => [config.name, config]));
  const after = new Set(next.map((config) => config.name));
  return {
    added: next.filter((config) => !before.has(config.name)),
    removed: running.filter((config) => !after.has(config.name)).map((config) => config.name),
    changed: next.filter((config) => {
      const old = before.get(config.name);
      return old !== undefined && !sameEntry(old, config);
    }),
  };
}

/** `added a, b; removed c; restarted d` — or that nothing changed. */
export function describeChange(change: ServerSetChange): string {
  const parts = [
    change.added.length > 0 ? `added ${change.added.map((config) => config.name).join(', ')}` : '',
    change.removed.length > 0 ? `removed ${change.removed.join(', ')}` : '',
    change.changed.length > 0 ? `restarted ${change.changed.map((config) => config.name).join(', ')}` : '',
  ].filter((part) => part !== '');
  return parts.length > 0 ? parts.join('; ') : 'no server changed';
}
