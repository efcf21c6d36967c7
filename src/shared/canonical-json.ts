/**
 * JSON with every object's keys in order, so that two values that mean the same are written the
 * same: a server that only reorders a schema's keys has not changed it.
 */
import { isRecord } from './is-record.js';

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted(value[key])]),
  );
}

/** `indent` 0: one line (what is hashed); 2: for people to read. */
export function canonicalJson(value: unknown, indent = 0): string {
  return JSON.stringify(sorted(value), null, indent) ?? 'null';
}
