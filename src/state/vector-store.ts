/**
 * Tool embeddings kept between runs, one file per embedding model in the state directory
 * (`embeddings/<model>.json`), so each tool description is embedded once, not once per `ask`.
 * A file that cannot be read is treated as empty (the vectors are only a cache); the file
 * keeps the newest `MAX_VECTORS`, so servers that come and go do not grow it forever.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import type { VectorStore } from '../engine/tool-selection/embedding-ranker.js';
import { writeFileAtomic } from '../shared/atomic-write.js';
import type { Logger } from '../shared/log.js';

const MAX_VECTORS = 2_000;
const storeSchema = z.object({ version: z.literal(1), vectors: z.record(z.string(), z.array(z.number())) });

/** A model name as a file name: `nomic-embed-text:latest` → `nomic-embed-text_latest`. */
function fileName(model: string): string {
  return `${model.replace(/[^A-Za-z0-9._-]/g, '_')}.json`;
}

export function fileVectorStore(stateDir: string, model: string, log: Logger): VectorStore {
  const file = path.join(stateDir, 'embeddings', fileName(model));
  return {
    async load() {
      try {
        const parsed = storeSchema.safeParse(JSON.parse(await fs.promises.readFile(file, 'utf8')));
        if (parsed.success) return new Map(Object.entries(parsed.data.vectors));
        log.debug({ file }, 'embedding cache not understood; starting empty');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
          log.debug({ file, err: error }, 'embedding cache unreadable');
      }
      return new Map();
    },
    async save(vectors) {
      const newest = [...vectors].slice(-MAX_VECTORS);
      try {
        writeFileAtomic(file, JSON.stringify({ version: 1, vectors: Object.fromEntries(newest) }));
      } catch (error) {
        log.warn({ file, err: error }, 'could not keep tool embeddings; they will be computed again next run');
      }
    },
  };
}
