/**
 * Two modules of the SDK load, as they load, what they use only later and often never:
 * - the Ajv provider loads Ajv (with its formats, ~200 kB) for a default validator that mcp-chat
 *   replaces (src/mcp/lazy-schema-validator.ts) and that builds Ajv only for a tool that declares
 *   an output schema;
 * - the in-memory task store loads `node:crypto` (~3 ms on Node 20) to name a task, which only a
 *   server that sends a request as a task ever has it do.
 * This esbuild plugin has each require what it needs where it first uses it. The import lines it
 * replaces are checked: a module that changed stops the build and names this file.
 */
import fs from 'node:fs';

const SDK_ESM = '@modelcontextprotocol/sdk/dist/esm/';

/** Per module of the SDK: each import line, and what stands for it, loading the import on its first call. */
const ON_FIRST_USE = {
  'validation/ajv-provider.js': {
    "import Ajv from 'ajv';":
      "function Ajv(options) { const AjvClass = require('ajv').default; return new AjvClass(options); }",
    "import _addFormats from 'ajv-formats';":
      "function _addFormats(ajv) { return require('ajv-formats').default(ajv); }",
  },
  'experimental/tasks/stores/in-memory.js': {
    "import { randomBytes } from 'node:crypto';":
      "const randomBytes = (size) => process.getBuiltinModule('node:crypto').randomBytes(size);",
  },
};

/** A module's path as a pattern that matches it with either separator. */
const pathPattern = (file) => file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replaceAll('/', '[\\\\/]');
const MODULES = new RegExp(
  `(${Object.keys(ON_FIRST_USE)
    .map((module) => pathPattern(`${SDK_ESM}${module}`))
    .join('|')})$`,
);

/** `source`, the SDK module `module` (a key of ON_FIRST_USE), with its imports loaded on first use. */
export function patchSdkModule(module, source) {
  let patched = source;
  for (const [line, onFirstUse] of Object.entries(ON_FIRST_USE[module])) {
    if (!patched.includes(line))
      throw new Error(`${SDK_ESM}${module} no longer has "${line}": review scripts/sdk-on-first-use.mjs`);
    patched = patched.replace(line, onFirstUse);
  }
  return patched;
}

export const sdkOnFirstUse = {
  name: 'sdk-on-first-use',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: MODULES }, async (args) => {
      const normalised = args.path.split('\\').join('/');
      const module = Object.keys(ON_FIRST_USE).find((name) => normalised.endsWith(`${SDK_ESM}${name}`));
      return { contents: patchSdkModule(module, await fs.promises.readFile(args.path, 'utf8')), loader: 'js' };
    });
  },
};
