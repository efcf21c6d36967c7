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
