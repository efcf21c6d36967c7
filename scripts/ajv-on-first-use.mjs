/**
 * The SDK's client loads Ajv (with its formats, ~200 kB) as it loads, for a default validator that
 * mcp-chat replaces (src/mcp/lazy-schema-validator.ts) and that builds Ajv only for a tool that
 * declares an output schema. This esbuild plugin has the SDK's Ajv provider require Ajv where it
 * builds one, so a start with no such tool never runs Ajv's code. The import lines it replaces are
 * checked: a provider that changed stops the build and names this file.
 */
import fs from 'node:fs';

const AJV_PROVIDER = /@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]validation[\\/]ajv-provider\.js$/;

/** Each import line, and what stands for it: a function that requires the package on its first call. */
const ON_FIRST_USE = {
  "import Ajv from 'ajv';":
    "function Ajv(options) { const AjvClass = require('ajv').default; return new AjvClass(options); }",
  "import _addFormats from 'ajv-formats';": "function _addFormats(ajv) { return require('ajv-formats').default(ajv); }",
};

/** The provider's source with Ajv and its formats required on first use. */
export function patchAjvProvider(file, source) {
  let patched = source;
  for (const [line, onFirstUse] of Object.entries(ON_FIRST_USE)) {
    if (!patched.includes(line))
      throw new Error(`${file} no longer has "${line}": review scripts/ajv-on-first-use.mjs`);
    patched = patched.replace(line, onFirstUse);
  }
  return patched;
}

export const ajvOnFirstUse = {
  name: 'ajv-on-first-use',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: AJV_PROVIDER }, async (args) => ({
      contents: patchAjvProvider(args.path, await fs.promises.readFile(args.path, 'utf8')),
      loader: 'js',
    }));
  },
};
