/** The 100-tool catalogue recorded from the nine servers of `test/fixtures/many-tools` (see bench/fixtures/README.md). */
import fs from 'node:fs';
import path from 'node:path';
import type { ToolSpec } from '../../src/vocabulary/types.js';
import { REPO_ROOT } from './server-configs.js';

export function manyToolsCatalogue(): ToolSpec[] {
  const file = path.join(REPO_ROOT, 'bench/fixtures/many-tools-catalogue.json');
  return JSON.parse(fs.readFileSync(file, 'utf8')) as ToolSpec[];
}
