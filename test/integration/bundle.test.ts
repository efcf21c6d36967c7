/**
 * What the build promises about the programs it ships (scripts/bundle.mjs): each runs from
 * one bundled file (plus, for the CLI, chunks loaded on use), so start-up does not resolve
 * and compile hundreds of modules; the CLI's `main` comes as one file with everything it imports
 * (scripts/merge-startup-chunks.mjs), and every file of the CLI links after that merge; Ajv is a
 * file of its own, read only when a schema is first checked; `ask`, `call` and `tools` never load
 * Ink; the calculator server leaves mathjs to its evaluator child; no bundle carries zod's
 * messages in other languages, or the date-fns that pino-roll calls only for options mcp-chat does
 * not use; the SDK's Ajv provider and task store, pino, sonic-boom, marked-terminal and
 * string-width load Ajv, `node:crypto`, thread-stream, `node:worker_threads`, `node:assert`,
 * cli-highlight and the pattern of RGI emoji only when first used (scripts/on-first-use.mjs;
 * test/integration/on-first-use.test.ts checks the last two behave as published). Read from
 * esbuild's own account of the build (dist/bundle-meta.json); `npm test` builds first.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/server-configs.js';

interface Output {
  imports: Array<{ path: string; kind: string; external?: boolean }>;
  /** Source files (relative to the repository) bundled into this output, and the bytes each left in it. */
  inputs: Record<string, { bytesInOutput: number }>;
  entryPoint?: string;
}

const outputs = (
  JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'dist/bundle-meta.json'), 'utf8')) as {
    outputs: Record<string, Output>;
  }
).outputs;

function output(file: string): Output {
  const found = outputs[file];
  if (!found) throw new Error(`${file} is not in the build`);
  return found;
}

function outputFor(entryPoint: string): string {
  const file = Object.keys(outputs).find((name) => outputs[name]?.entryPoint === entryPoint);
  if (!file) throw new Error(`no output for ${entryPoint}`);
  return file;
}

type Import = Output['imports'][number];

/**
 * Every output a program can load from `file`, itself included, through the build's own imports
 * (`follows`: which imports count; all by default).
 */
function reachable(file: string, follows: (imported: Import) => boolean = () => true): string[] {
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const imported of output(name).imports) if (!imported.external && follows(imported)) visit(imported.path);
  };
  visit(file);
  return [...seen];
}

/** The outputs loaded with `file` itself: its static imports, not what it may import later. */
const loadedWith = (file: string): string[] => reachable(file, (imported) => imported.kind === 'import-statement');

const bundles = (files: string[], sourcePrefix: string): boolean =>
  files.some((file) => Object.keys(output(file).inputs).some((input) => input.startsWith(sourcePrefix)));

/** `node:sqlite` (undici's optional cache store) is a built-in only from Node 22 on, and loaded only there. */
const isNodeBuiltin = (name: string): boolean => name.startsWith('node:') || isBuiltin(name);

/** Optional packages of Ink's devtools chunk, which only DEV=true loads; none is installed. */
const DEVTOOLS_ONLY = new Set(['react-devtools-core', 'bufferutil', 'utf-8-validate']);
const isDevtools = (file: string): boolean =>
  output(file).imports.some((imported) => imported.external && DEVTOOLS_ONLY.has(imported.path));

/** Outputs of the CLI's own build: the executable, its chunks, and the Ajv it requires on first use. */
const CLI_FILES = Object.keys(outputs).filter((file) => file.startsWith('dist/src/'));
const CLI_MAIN = outputFor('src/cli/main.ts');
const AJV_FILE = outputFor('scripts/ajv.mjs');

/**
 * What a command loads, `file` included: not through the command line's main, which every command
 * has loaded before it and whose dynamic imports are the other commands.
 */
const loadedByCommand = (file: string): string[] => reachable(file, (imported) => imported.path !== CLI_MAIN);

/** The relative paths `file` (a built file) imports before it runs, read from the file itself. */
function staticImportsInText(file: string): string[] {
  const text = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
  return [...text.matchAll(/^import\s*(?:[^'"]*?\sfrom\s*)?["'](\.[^"']+)["'];$/gm)].map(([, specifier]) =>
    path.join(path.dirname(file), specifier ?? ''),
  );
}

const SERVERS = ['calculator/main', 'calculator/evaluator-child', 'file/main', 'research/main', 'github/main'];

describe('the built programs', () => {
  it.each(SERVERS)('dist/servers/%s.js is one file that imports only Node built-ins', (name) => {
    const built = output(`dist/servers/${name}.js`);
    expect(built.entryPoint).toBe(`servers/${name}.ts`);
    expect(built.imports.filter((imported) => !isNodeBuiltin(imported.path))).toEqual([]);
  });

  it('the CLI loads nothing from node_modules at run time: only Node built-ins, its own chunks and its Ajv', () => {
    for (const file of reachable('dist/src/cli.js')) {
      const outside = output(file)
        .imports.filter((imported) => imported.external && !isNodeBuiltin(imported.path))
        .map((imported) => imported.path)
        .filter((name) => !DEVTOOLS_ONLY.has(name));
      expect(
        outside.map((name) => path.join(path.dirname(file), name)).filter((name) => name !== AJV_FILE),
        file,
      ).toEqual([]);
    }
  });

  it("the CLI's main is one file with all it imports, but what the executable loads before the compile cache", () => {
    const beforeCache = staticImportsInText('dist/src/cli.js');
    // The executable imports main only once the compile cache is on (src/cli.ts).
    expect(beforeCache).not.toContain(CLI_MAIN);
    expect(bundles(loadedWith('dist/src/cli.js'), 'node_modules/zod/')).toBe(false);
    expect(staticImportsInText(CLI_MAIN).filter((file) => !beforeCache.includes(file))).toEqual([]);
    for (const source of ['src/cli/main.ts', 'src/shared/errors.ts', 'src/config/load.ts', 'src/shared/log.ts']) {
      expect(Object.keys(output(CLI_MAIN).inputs), source).toContain(source);
    }
    expect(bundles([CLI_MAIN], 'node_modules/zod/')).toBe(true);
  });

  it('each module of the CLI is in one of its files only, so each has one instance', () => {
    const chunksOnDisk = fs
      .readdirSync(path.join(REPO_ROOT, 'dist/src/chunks'))
      .map((name) => `dist/src/chunks/${name}`);
    expect(chunksOnDisk.sort()).toEqual(CLI_FILES.filter((file) => file.startsWith('dist/src/chunks/')).sort());
    const holders = new Map<string, string[]>();
    for (const file of CLI_FILES.filter((name) => name.endsWith('.js'))) {
      for (const input of Object.keys(output(file).inputs)) holders.set(input, [...(holders.get(input) ?? []), file]);
    }
    expect([...holders].filter(([, files]) => files.length > 1)).toEqual([]);
  });

  it("every file of the CLI links: each import names a file and an export that exist (Ink's devtools aside)", () => {
    const files = CLI_FILES.filter(
      (file) => file.endsWith('.js') && file !== 'dist/src/cli.js' && !loadedWith(file).some(isDevtools),
    );
    expect(files).toEqual(
      expect.arrayContaining([CLI_MAIN, outputFor('src/cli/tools-command.ts'), outputFor('src/mcp/host.ts')]),
    );
    const script = `for (const file of ${JSON.stringify(files)}) await import(\`./\${file}\`);`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it("Ajv is a file of its own, which the SDK's provider requires on first use and no chunk carries", () => {
    expect(
      bundles(
        CLI_FILES.filter((file) => file !== AJV_FILE),
        'node_modules/ajv/',
      ),
    ).toBe(false);
    const provider = CLI_FILES.find((file) =>
      Object.keys(output(file).inputs).some((input) => input.endsWith('sdk/dist/esm/validation/ajv-provider.js')),
    );
    if (provider === undefined) throw new Error("no CLI file holds the SDK's Ajv provider");
    expect(output(provider).imports).toContainEqual({
      path: path.relative(path.dirname(provider), AJV_FILE),
      kind: 'require-call',
      external: true,
    });
    const script = [
      `const { Ajv, addFormats } = require('./${AJV_FILE}');`,
      'const ajv = new Ajv();',
      'addFormats(ajv);',
      "const valid = ajv.compile({ type: 'string', format: 'email' });",
      "process.stdout.write(JSON.stringify([valid('a@example.org'), valid('not an address')]));",
    ].join('\n');
    const run = spawnSync(process.execPath, ['-e', script], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('[true,false]');
  });

  it.each(['ask', 'call', 'tools'])('`%s` never loads Ink or React; the chat does', (command) => {
    const loaded = loadedByCommand(outputFor(`src/cli/${command}-command.ts`));
    expect(bundles(loaded, 'node_modules/ink/')).toBe(false);
    expect(bundles(loaded, 'node_modules/react/')).toBe(false);
    expect(bundles(reachable(outputFor('src/cli/chat-command.tsx')), 'node_modules/ink/')).toBe(true);
  });

  it("the host loads the SDK's remote transports and its OAuth only when a remote server starts", () => {
    const host = outputFor('src/mcp/host.ts');
    const sdkClient = 'node_modules/@modelcontextprotocol/sdk/dist/esm/client/';
    for (const remote of ['streamableHttp.js', 'sse.js', 'auth.js']) {
      expect(bundles(loadedWith(host), `${sdkClient}${remote}`), remote).toBe(false);
      expect(bundles(reachable(host), `${sdkClient}${remote}`), remote).toBe(true);
    }
  });

  it("the chat holds React's production build only (the development build retains data on every render)", () => {
    const loaded = reachable(outputFor('src/cli/chat-command.tsx'));
    expect(bundles(loaded, 'node_modules/react/cjs/react.production')).toBe(true);
    expect(bundles(loaded, 'node_modules/react/cjs/react.development')).toBe(false);
    expect(bundles(loaded, 'node_modules/react-reconciler/cjs/react-reconciler.development')).toBe(false);
  });

  it("the chat's Ink keeps its layout caches bounded, and from one frame to the next, and only the last screens it wrote (scripts/ink-caches.mjs)", () => {
    const inkOutput = 'node_modules/ink/build/output.js';
    const file = reachable(outputFor('src/cli/chat-command.tsx')).find((name) => inkOutput in output(name).inputs);
    if (file === undefined) throw new Error(`${inkOutput} is not in the chat's bundle`);
    const inputs = Object.keys(output(file).inputs);
    for (const patched of [
      'output.js',
      'measure-text.js',
      'wrap-text.js',
      'ink.js',
      '../../../src/ui/ink-patch/recent-cache.ts',
      '../../../src/ui/ink-patch/last-screens.ts',
    ]) {
      expect(inputs).toContain(path.normalize(`node_modules/ink/build/${patched}`));
    }
    const text = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
    expect(text).toContain('caches = FRAME_CACHES;');
    expect(text).toContain('DRAWN_ROWS.get(key)');
    expect(text).toContain('LINE_WIDTHS.get(line)');
    expect(text).toContain('this.fullStaticOutput = lastScreens(this.fullStaticOutput + staticOutput');
    // Only debug mode, which the chat never runs in, still keeps every line.
    expect(text.split('this.fullStaticOutput += staticOutput').length - 1).toBe(1);
    expect(text).not.toMatch(/(widths|blockWidths|styledChars) = new Map\(\)/);
  });

  /** Patches `source` (an expression over `fs`) as ink/build/output.js in a child process, as the build would. */
  function patchOutput(source: string): SpawnSyncReturns<string> {
    const script = [
      "import fs from 'node:fs';",
      "import { patchInkSource } from './scripts/ink-caches.mjs';",
      `patchInkSource('ink/build/output.js', ${source});`,
    ].join('\n');
    return spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: REPO_ROOT, encoding: 'utf8' });
  }

  it('a build against an Ink whose patched text changed stops and names the file to review', () => {
    const run = patchOutput("'export default class Output { caches = new SomethingElse(); }'");
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('ink/build/output.js no longer contains');
    expect(run.stderr).toContain('review scripts/ink-caches.mjs');
  });

  it('a build against an Ink whose replaced method changed stops and names it', () => {
    // Ink's own output.js with one character of `get` changed: every text edit still applies.
    const run = patchOutput(
      "fs.readFileSync('node_modules/ink/build/output.js', 'utf8').replace('const output = [];', 'const output = [ ];')",
    );
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('ink/build/output.js has a different "get() {"');
    expect(run.stderr).toContain('review scripts/ink-caches.mjs');
  });

  it.each([
    [
      '@modelcontextprotocol/sdk/dist/esm/validation/ajv-provider.js',
      "import { Ajv } from 'ajv';",
      "import Ajv from 'ajv';",
    ],
    [
      '@modelcontextprotocol/sdk/dist/esm/experimental/tasks/stores/in-memory.js',
      "import * as crypto from 'node:crypto';",
      "import { randomBytes } from 'node:crypto';",
    ],
    [
      'pino/lib/transport.js',
      "const { ThreadStream } = require('thread-stream')",
      "const ThreadStream = require('thread-stream')",
    ],
    [
      'pino/lib/tools.js',
      "const { isMainThread } = require('worker_threads')\nif (!opts.sync && isMainThread()) {",
      'if (!opts.sync && isMainThread) {',
    ],
    ['sonic-boom/index.js', "const assert = require('node:assert')", "const assert = require('assert')"],
    [
      'marked-terminal/index.js',
      "import { highlight } from 'cli-highlight';",
      "import { highlight as highlightCli } from 'cli-highlight';",
    ],
    [
      'string-width/index.js',
      'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/u;',
      'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;',
    ],
  ])(
    'a build against a %s that changed where it loads on first use stops and names the file to review',
    (file, changed, line) => {
      const script = [
        "import { patchOnFirstUse } from './scripts/on-first-use.mjs';",
        `patchOnFirstUse(${JSON.stringify(file)}, ${JSON.stringify(changed)});`,
      ].join('\n');
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
      });
      expect(run.status).not.toBe(0);
      expect(run.stderr).toContain(`${file} no longer has "${line}"`);
      expect(run.stderr).toContain('review scripts/on-first-use.mjs');
    },
  );

  it('zod brings only its English messages, and pino-roll none of date-fns (only its frequency and dateFormat need it)', () => {
    const inputs = Object.values(outputs).flatMap((built) => Object.keys(built.inputs));
    const locales = inputs.filter((input) => input.startsWith('node_modules/zod/v4/locales/'));
    expect(new Set(locales)).toEqual(new Set(['node_modules/zod/v4/locales/en.js']));
    expect(inputs.filter((input) => input.includes('node_modules/date-fns/'))).toEqual([]);
    // What stands in for it, in the CLI's main file: rotation by size (test/e2e/logs.test.ts) never calls it.
    expect(inputs).toContain('date-fns-left-out:date-fns');
  });

  it("no bundle carries zod's `z` object, which holds all of zod (its JSON Schema reader among it) for any use of it", () => {
    // `import * as z from 'zod'` lets esbuild keep only what is called; `import { z }` keeps the whole object.
    const zObject = Object.entries(outputs).filter(
      ([, built]) => (built.inputs['node_modules/zod/v4/classic/external.js']?.bytesInOutput ?? 0) > 0,
    );
    expect(zObject.map(([name]) => name)).toEqual([]);
  });

  it('the calculator server leaves mathjs to its evaluator child', () => {
    const mathjs = 'mathjs/lib/browser/math.js';
    const text = (name: string): string =>
      fs.readFileSync(path.join(REPO_ROOT, `dist/servers/calculator/${name}.js`), 'utf8');
    expect(text('main')).not.toContain(mathjs);
    expect(text('evaluator-child')).toContain(mathjs);
  });
});
