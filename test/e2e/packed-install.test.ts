/**
 * What a user installs: the tarball `npm pack` makes from the build, installed as a user installs
 * it, run as a user runs it. The bundles hold every package the programs use (scripts/bundle.mjs),
 * so the package declares no runtime dependencies and its `files` ship only the bundles.
 * Measured when this test was written: 231 packages and 139 MB (`du -sk node_modules`) before,
 * the package alone and 13 MB after. The size is not asserted (it moves with every dependency
 * update); what ships and how many packages come with it are.
 *
 * No network: the install is `--offline`, with an empty npm cache and a registry that does not
 * exist, so it succeeds only because there is nothing to fetch. `npm test` builds first; this
 * test packs that build.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/server-configs.js';

const run = promisify(execFile);

/** Packing 14 MB and installing it takes seconds alone, far longer on a busy 2-core machine. */
const TIMEOUT_MS = 180_000;

let root: string;
/** The empty project the tarball is installed into. */
let project: string;
/** Only what npm and the CLI need; the test's own settings, cache and registry never reach them. */
let env: Record<string, string>;

/** Every package directory under a node_modules tree, scoped ones as `@scope/name`, nested ones included. */
function installedPackages(nodeModules: string): string[] {
  if (!fs.existsSync(nodeModules)) return [];
  const names: string[] = [];
  for (const entry of fs.readdirSync(nodeModules)) {
    // npm's own bookkeeping (.package-lock.json, .bin) is not a package.
    if (entry.startsWith('.')) continue;
    const scoped = entry.startsWith('@')
      ? fs.readdirSync(path.join(nodeModules, entry)).map((n) => `${entry}/${n}`)
      : [entry];
    for (const name of scoped) {
      names.push(name);
      names.push(...installedPackages(path.join(nodeModules, name, 'node_modules')));
    }
  }
  return names;
}

/** Every file under `dir`, relative to it, with `/` separators. */
function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

beforeAll(async () => {
  if (!fs.existsSync(path.join(REPO_ROOT, 'dist/src/cli.js'))) {
    throw new Error('no build to pack: run `npm run build` first (`npm test` does)');
  }
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-packed-')));
  project = path.join(root, 'project');
  for (const dir of ['pack', 'project', 'elsewhere', 'home', 'state', 'config', 'npm-cache']) {
    fs.mkdirSync(path.join(root, dir));
  }
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'empty-project', private: true }));
  env = {
    // The node running this test runs npm and the installed CLI too (its shebang finds `node` on PATH).
    PATH: [path.dirname(process.execPath), process.env.PATH ?? ''].join(path.delimiter),
    HOME: path.join(root, 'home'),
    XDG_STATE_HOME: path.join(root, 'state'),
    XDG_CONFIG_HOME: path.join(root, 'config'),
    npm_config_cache: path.join(root, 'npm-cache'),
    // Nothing listens on port 9 (discard): a fetch would fail instead of reaching a registry.
    npm_config_registry: 'http://127.0.0.1:9/',
    npm_config_update_notifier: 'false',
  };
}, TIMEOUT_MS);

afterAll(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

describe('the published package', () => {
  it(
    'the packed tarball installs into an empty directory with no registry and no cache, and runs `call` from another directory',
    async () => {
      // --ignore-scripts: a prepack/prepare build would rewrite dist/ under the tests running beside
      // this one; the package has none today, and the build is what `npm test` made.
      const packed = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', path.join(root, 'pack')], {
        cwd: REPO_ROOT,
        env,
        timeout: TIMEOUT_MS,
      });
      const tarball = path.join(root, 'pack', packed.stdout.trim().split('\n').at(-1) ?? '');
      expect(fs.existsSync(tarball), `npm pack printed ${packed.stdout}`).toBe(true);

      await run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], {
        cwd: project,
        env,
        timeout: TIMEOUT_MS,
      });

      // No runtime dependency: the install is the package alone.
      expect(installedPackages(path.join(project, 'node_modules'))).toEqual(['mcp-chat']);

      // Only what runs ships: the bundles, their chunks, the served page's script and the CLI's Ajv, not tsc's per-module output or maps.
      const installed = path.join(project, 'node_modules/mcp-chat');
      const shipped = filesUnder(installed);
      for (const file of shipped.filter((name) => name.startsWith('dist/'))) {
        expect(file).toMatch(
          /^dist\/(src\/cli\.js|src\/chunks\/[^/]+\.js|web\/page\.js|servers\/[^/]+\/main\.js|servers\/calculator\/evaluator-child\.js)$/,
        );
      }
      expect(shipped).toEqual(
        expect.arrayContaining([
          'package.json',
          'README.md',
          'mcp_config.json',
          '.env.example',
          'dist/src/cli.js',
          'dist/web/page.js',
          'dist/servers/calculator/main.js',
          'dist/servers/calculator/evaluator-child.js',
          'dist/servers/file/main.js',
          'dist/servers/research/main.js',
          'dist/servers/github/main.js',
        ]),
      );

      // The shipped config names its servers relative to the package: found from any directory.
      const called = await run(
        path.join(project, 'node_modules/.bin/mcp-chat'),
        ['call', 'calculator', 'evaluate', '{"expression":"2+3"}'],
        { cwd: path.join(root, 'elsewhere'), env, timeout: 60_000 },
      );
      expect(called.stdout).toBe('5\n');
    },
    TIMEOUT_MS,
  );
});
