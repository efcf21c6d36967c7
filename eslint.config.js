// ESLint 9 flat config, run by `npm run lint` over src/, servers/, test/, bench/ and scripts/.
// typescript-eslint's `recommended` set only (no type-checked sets: they need the type checker and are slow).
// No stylistic rules here: formatting is Prettier's job (`npm run format:check`).
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig([
  globalIgnores(['dist/', 'dist-bench/', 'coverage/', 'node_modules/']),
  {
    files: ['**/*.{js,mjs,cjs,ts,tsx}'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    languageOptions: {
      // Everything here runs on Node (the CLI, the servers, tests, benches, build scripts).
      globals: globals.node,
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // The page `mcp-chat serve` serves runs in the browser.
    files: ['web/**'],
    languageOptions: { globals: globals.browser },
  },
  {
    // zod's `z` object holds all of zod, so a bundle that imports it keeps all of it (its JSON Schema
    // reader and compiler among it); a namespace import keeps what is called (test/integration/bundle.test.ts).
    files: ['src/**', 'servers/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z']",
          message: "import * as z from 'zod': the `z` object keeps all of zod in the bundle",
        },
      ],
    },
  },
  {
    // From Node 22 on, `node:http` as an ES module loads all of undici as it loads (nodejs/node#57649):
    // src/shared/node-http.ts takes it through require, and every other file takes it from there.
    files: ['src/**'],
    ignores: ['src/shared/node-http.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['node:http', 'node:https', 'http', 'https'].map((name) => ({
            name,
            allowTypeImports: true,
            message: 'take it from src/shared/node-http.ts: as an ES module it loads all of undici',
          })),
        },
      ],
    },
  },
  {
    // Small files with one responsibility, functions that fit on a screen (STYLE.md's budget):
    // something larger is split by what it does, not by layer.
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      'max-lines': ['error', { max: 300 }],
      'max-lines-per-function': ['error', { max: 60 }],
    },
  },
  {
    // The terminal sanitisers match control characters on purpose: they strip them from untrusted
    // text before it reaches the terminal. The key splitter finds the control keys in a chunk of input.
    files: ['src/shared/terminal-text.ts', 'src/ui/key-chunks.ts'],
    rules: { 'no-control-regex': 'off' },
  },
  {
    // Tests assert that no raw control character or escape sequence reaches the output,
    // so their regexes contain control characters on purpose.
    files: ['test/**'],
    rules: { 'no-control-regex': 'off' },
  },
]);
