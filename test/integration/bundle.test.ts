/**
 * What the build promises about the programs it ships (scripts/bundle.mjs): each runs from
 * one bundled file (plus, for the CLI, chunks loaded on use), so start-up does not resolve
 * and compile hundreds of modules; every file of the CLI links; `ask`, `call` and `tools` never
 * load Ink; the chat's Ink is the patched one the UI tests render (patches/ink+6.8.0.patch); the
 * calculator server leaves mathjs to its evaluator child; `node:http` is required, never imported as
 * an ES module; a turn loads the tools' ranking and the diff library only when it uses them, and
 * the chat its markdown renderer only after its first frame. Read from esbuild's own account of the
 * build (dist/bundle-meta.json); `npm test` builds first.
 */
import { spawnSync } from 'node:child_process';
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

/** Outputs of the CLI's own build: the executable and its chunks. */
const CLI_FILES = Object.keys(outputs).filter((file) => file.startsWith('dist/src/'));
const CLI_MAIN = outputFor('src/cli/main.ts');

/**
 * What a command loads, `file` included: not through the command line's main, which every command
 * has loaded before it and whose dynamic imports are the other commands.
 */
const loadedByCommand = (file: string): string[] => reachable(file, (imported) => imported.path !== CLI_MAIN);

const SERVERS = ['calculator/main', 'calculator/evaluator-child', 'file/main', 'research/main', 'github/main'];

describe('the built programs', () => {
  it.each(SERVERS)('dist/servers/%s.js is one file that imports only Node built-ins', (name) => {
    const built = output(`dist/servers/${name}.js`);
    expect(built.entryPoint).toBe(`servers/${name}.ts`);
    expect(built.imports.filter((imported) => !isNodeBuiltin(imported.path))).toEqual([]);
  });

  it('the CLI loads nothing from node_modules at run time: only Node built-ins and its own chunks', () => {
    for (const file of reachable('dist/src/cli.js')) {
      const outside = output(file)
        .imports.filter((imported) => imported.external && !isNodeBuiltin(imported.path))
        .map((imported) => imported.path)
        .filter((name) => !DEVTOOLS_ONLY.has(name));
      expect(outside, file).toEqual([]);
    }
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

  it.each(['ask', 'call', 'tools'])('`%s` never loads Ink or React; the chat does', (command) => {
    const loaded = loadedByCommand(outputFor(`src/cli/${command}-command.ts`));
    expect(bundles(loaded, 'node_modules/ink/')).toBe(false);
    expect(bundles(loaded, 'node_modules/react/')).toBe(false);
    expect(bundles(reachable(outputFor('src/cli/chat-command.tsx')), 'node_modules/ink/')).toBe(true);
  });

  it('what every command loads does not measure text for listings (string-width builds Unicode segmenters as it loads); `tools` does', () => {
    const everyCommand = [...loadedWith('dist/src/cli.js'), ...loadedWith(CLI_MAIN)];
    expect(bundles(everyCommand, 'node_modules/string-width/')).toBe(false);
    expect(bundles(loadedByCommand(outputFor('src/cli/ask-command.ts')), 'node_modules/string-width/')).toBe(false);
    expect(bundles(loadedByCommand(outputFor('src/cli/tools-command.ts')), 'node_modules/string-width/')).toBe(true);
  });

  it.each(['ask-command.ts', 'chat-command.tsx'])(
    'what `%s` loads never imports `node:http` or `node:https` as an ES module, which from Node 22 on loads all of undici (nodejs/node#57649)',
    (command) => {
      const asModules = loadedByCommand(outputFor(`src/cli/${command}`)).flatMap((file) =>
        output(file)
          .imports.filter((imported) => imported.kind === 'import-statement' && /^(node:)?https?$/.test(imported.path))
          .map((imported) => `${file} imports ${imported.path}`),
      );
      expect(asModules).toEqual([]);
    },
  );

  it("the host loads the SDK's remote transports and its OAuth only when a remote server starts", () => {
    const host = outputFor('src/mcp/host.ts');
    const sdkClient = 'node_modules/@modelcontextprotocol/sdk/dist/esm/client/';
    for (const remote of ['streamableHttp.js', 'sse.js', 'auth.js']) {
      expect(bundles(loadedWith(host), `${sdkClient}${remote}`), remote).toBe(false);
      expect(bundles(reachable(host), `${sdkClient}${remote}`), remote).toBe(true);
    }
  });

  it("the turn loads the tools' ranking only for a catalogue that does not fit, and the diff only for a write", () => {
    const turn = outputFor('src/cli/ask-turn.ts');
    for (const lazy of ['node_modules/minisearch/', 'node_modules/stemmer/', 'node_modules/diff/']) {
      expect(bundles(loadedWith(turn), lazy), lazy).toBe(false);
      expect(bundles(reachable(turn), lazy), lazy).toBe(true);
    }
  });

  it('the chat draws its first frame without the markdown renderer (highlight.js and all its languages), and loads it after', () => {
    const chat = outputFor('src/cli/chat-command.tsx');
    for (const lazy of ['node_modules/marked-terminal/', 'node_modules/cli-highlight/', 'node_modules/highlight.js/']) {
      expect(bundles(loadedWith(chat), lazy), lazy).toBe(false);
      expect(bundles(reachable(chat), lazy), lazy).toBe(true);
    }
  });

  it("the chat holds React's production build only (the development build retains data on every render)", () => {
    const loaded = reachable(outputFor('src/cli/chat-command.tsx'));
    expect(bundles(loaded, 'node_modules/react/cjs/react.production')).toBe(true);
    expect(bundles(loaded, 'node_modules/react/cjs/react.development')).toBe(false);
    expect(bundles(loaded, 'node_modules/react-reconciler/cjs/react-reconciler.development')).toBe(false);
  });

  it("the chat's Ink is the one in node_modules, as patched there for the tests too (patches/ink+6.8.0.patch)", () => {
    const chatFiles = reachable(outputFor('src/cli/chat-command.tsx'));
    const text = chatFiles.map((name) => fs.readFileSync(path.join(REPO_ROOT, name), 'utf8')).join('\n');
    for (const file of ['ink.js', 'measure-text.js', 'wrap-text.js', 'output.js']) {
      const installed = fs.readFileSync(path.join(REPO_ROOT, 'node_modules/ink/build', file), 'utf8');
      const patchedLines = installed.split('\n').filter((line) => line.includes('Patched (mcp-chat'));
      expect(patchedLines, `node_modules/ink/build/${file} is patched`).toHaveLength(1);
    }
    expect(text).toContain('this.fullStaticOutput = lastScreens(this.fullStaticOutput + staticOutput');
    expect(text.match(/cache\d*\.size >= CACHE_LIMIT\d*\)/g)).toHaveLength(2);
    expect(text).toContain('styledCharsThisFrame.get(line) ?? styledCharsLastFrame.get(line)');
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
