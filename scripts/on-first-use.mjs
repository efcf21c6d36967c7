/**
 * Some packages load, as they load, what they use only later and often never; the build has each
 * require it where it is first used instead (an esbuild plugin over their files):
 * - the SDK's Ajv provider loads Ajv (with its formats, ~280 kB) for a default validator that
 *   mcp-chat replaces (src/mcp/lazy-schema-validator.ts) and that builds Ajv only for a tool that
 *   declares an output schema: the provider requires scripts/ajv.mjs, which `ajvApart` makes a file
 *   of its own for the CLI (and the benchmarks' baseline scripts, packaged as the CLI is), so that a
 *   start never even reads Ajv's code, and which the servers' bundles hold in place;
 * - the SDK's in-memory task store loads `node:crypto` (~3 ms on Node 20) to name a task, which
 *   only a server that sends a request as a task ever has it do;
 * - pino loads `node:worker_threads` (with thread-stream) for its transports and to ask whether it
 *   runs on the main thread when a destination is asynchronous, and sonic-boom loads `node:assert`
 *   for one check of a file descriptor: mcp-chat's log uses neither a transport nor an asynchronous
 *   destination, and the two modules cost ~3 ms of CPU before the servers are spawned on Node 20;
 * - marked-terminal loads cli-highlight, and with it highlight.js, which registers its ~190
 *   languages as it loads (~25 ms of CPU at every start of the chat), for a fenced code block;
 * - string-width (Ink's, measuring every text the chat draws) builds its pattern of RGI emoji as it
 *   loads, which V8 takes 30–40 ms to build: it is built for the first text that can hold one.
 *   Every RGI emoji holds a character of Unicode's Emoji property beyond ASCII, or U+20E3 (a
 *   keycap: `#`, `*` and the digits are the only Emoji characters in ASCII); text with neither
 *   cannot match it, and is measured as before without it (test/integration/on-first-use.test.ts).
 * The lines it replaces are checked: a file that changed stops the build and names this file. Only
 * the copy of each package at the top of node_modules is patched (older string-widths sit below).
 */
import fs from 'node:fs';
import path from 'node:path';

/** What the Ajv provider requires on first use: scripts/ajv.mjs, bundled in place or apart. */
const AJV = 'mcp-chat:ajv';
const AJV_SOURCE = path.join(import.meta.dirname, 'ajv.mjs');

/** Per file under node_modules: each line, and what stands for it, requiring the import on its first call. */
const ON_FIRST_USE = {
  '@modelcontextprotocol/sdk/dist/esm/validation/ajv-provider.js': {
    "import Ajv from 'ajv';": `function Ajv(options) { return new (require('${AJV}').Ajv)(options); }`,
    "import _addFormats from 'ajv-formats';": `function _addFormats(ajv) { return require('${AJV}').addFormats(ajv); }`,
  },
  '@modelcontextprotocol/sdk/dist/esm/experimental/tasks/stores/in-memory.js': {
    "import { randomBytes } from 'node:crypto';":
      "const randomBytes = (size) => process.getBuiltinModule('node:crypto').randomBytes(size);",
  },
  'pino/lib/transport.js': {
    "const ThreadStream = require('thread-stream')":
      "function ThreadStream (options) { const Stream = require('thread-stream'); return new Stream(options) }",
  },
  'pino/lib/tools.js': {
    "const { isMainThread } = require('worker_threads')":
      "const onMainThread = () => require('worker_threads').isMainThread",
    'if (!opts.sync && isMainThread) {': 'if (!opts.sync && onMainThread()) {',
  },
  'sonic-boom/index.js': {
    "const assert = require('assert')": "const assert = (value, message) => require('assert')(value, message)",
  },
  'marked-terminal/index.js': {
    "import { highlight as highlightCli } from 'cli-highlight';":
      "const highlightCli = (code, options) => require('cli-highlight').highlight(code, options);",
  },
  'string-width/index.js': {
    // Replaced by one line, so that the file's source map still fits it.
    'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;': [
      'let rgiEmojiRegex;',
      'const mayBeRgiEmoji = /(?=\\P{ASCII})\\p{Emoji}|\\u20E3/u;',
      'const isRgiEmoji = (segment) => mayBeRgiEmoji.test(segment) && (rgiEmojiRegex ??= /^\\p{RGI_Emoji}$/v).test(segment);',
    ].join(' '),
    'if (rgiEmojiRegex.test(segment) ||': 'if (isRgiEmoji(segment) ||',
  },
};

/** The packages patched: those at the top of the project's node_modules. */
const TOP_MODULES = path.join(import.meta.dirname, '..', 'node_modules');

/** A file's path as a pattern that matches it with either separator. */
const pathPattern = (file) => file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replaceAll('/', '[\\\\/]');
const FILES = new RegExp(
  `node_modules[\\\\/](${Object.keys(ON_FIRST_USE)
    .map((file) => pathPattern(file))
    .join('|')})$`,
);

/** `source`, the file `file` (a key of ON_FIRST_USE), with its imports required on first use. */
export function patchOnFirstUse(file, source) {
  let patched = source;
  for (const [line, onFirstUse] of Object.entries(ON_FIRST_USE[file])) {
    if (!patched.includes(line)) throw new Error(`${file} no longer has "${line}": review scripts/on-first-use.mjs`);
    patched = patched.replace(line, () => onFirstUse);
  }
  return patched;
}

export const onFirstUse = {
  name: 'on-first-use',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: new RegExp(`^${AJV}$`) }, () => ({ path: AJV_SOURCE }));
    pluginBuild.onLoad({ filter: FILES }, async (args) => {
      // The filter matches every copy of a patched file; a copy below the top is loaded as it is.
      const file = path.relative(TOP_MODULES, args.path).split(path.sep).join('/');
      if (!Object.hasOwn(ON_FIRST_USE, file)) return undefined;
      return { contents: patchOnFirstUse(file, await fs.promises.readFile(args.path, 'utf8')), loader: 'js' };
    });
  },
};

/**
 * For a build whose outputs sit in one folder (the CLI's chunks, the benchmarks' scripts): Ajv is
 * required from `file`, a path relative to that folder, built by `buildAjvApart` (before
 * `onFirstUse` in the list of plugins, so that it answers first).
 */
export const ajvApart = (file) => ({
  name: 'ajv-apart',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: new RegExp(`^${AJV}$`) }, () => ({ path: file, external: true }));
  },
});

/** Writes scripts/ajv.mjs, bundled, as the CommonJS file `outfile` (which `require` loads at once). */
export const buildAjvApart = (build, outfile) =>
  build({
    entryPoints: [AJV_SOURCE],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: true,
    sourcesContent: false,
    logLevel: 'warning',
    metafile: true,
  });
