/**
 * Where things are, found without the product's own modules (the process-level benchmarks
 * drive the build as a user does): the repository root, the built CLI and servers.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The nearest directory above this module holding mcp-chat's package.json: the same from bench/ and dist-bench/. */
function findRoot(from: string): string {
  for (let dir = from; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (
      fs.existsSync(manifest) &&
      (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string }).name === 'mcp-chat'
    )
      return dir;
  }
  throw new Error(`no mcp-chat package.json above ${from}`);
}

export const REPO_ROOT = findRoot(import.meta.dirname);
export const BENCH_DIR = path.join(REPO_ROOT, 'bench');
export const CLI = path.join(REPO_ROOT, 'dist/src/cli.js');
export const serverMain = (name: string): string => path.join(REPO_ROOT, `dist/servers/${name}/main.js`);
