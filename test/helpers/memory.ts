/**
 * Memory measures for leak tests: what survives a full collection in another process (a V8 heap
 * snapshot, as `node --heapsnapshot-signal` writes it); in this one, test/helpers/gc.ts.
 */
import fs from 'node:fs';
import path from 'node:path';

interface HeapSnapshotFile {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
}

/** Node kinds that are program data; compiled code and V8's own bookkeeping grow as code warms up. */
const DATA_TYPES = new Set([
  'object',
  'array',
  'string',
  'concatenated string',
  'sliced string',
  'number',
  'closure',
  'regexp',
  'bigint',
  'symbol',
]);

/** Bytes of live program data in a heap snapshot file. */
export function liveDataBytes(file: string): number {
  const snapshot = JSON.parse(fs.readFileSync(file, 'utf8')) as HeapSnapshotFile;
  const fields = snapshot.snapshot.meta.node_fields;
  const typeNames = snapshot.snapshot.meta.node_types[0];
  const typeAt = fields.indexOf('type');
  const sizeAt = fields.indexOf('self_size');
  let bytes = 0;
  for (let at = 0; at < snapshot.nodes.length; at += fields.length) {
    const type = typeNames[snapshot.nodes[at + typeAt] ?? -1];
    if (type !== undefined && DATA_TYPES.has(type)) bytes += snapshot.nodes[at + sizeAt] ?? 0;
  }
  return bytes;
}

/** Heap snapshot files `--heapsnapshot-signal` wrote into `dir`, oldest first. */
export function heapSnapshots(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.heapsnapshot'))
    .sort()
    .map((name) => path.join(dir, name));
}
