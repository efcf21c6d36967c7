/**
 * Second build step, after `tsc`: replaces each program that runs in its own process (the CLI,
 * the four servers and the calculator's evaluator child) with one bundled file at the same path,
 * and bundles the page `mcp-chat serve` serves (web/page.ts) into dist/web/page.js.
 * Why: Node resolves, reads and compiles an ES module graph file by file; the CLI and each server
 * load several hundred files (zod, ajv, the SDK), which cost more CPU at start-up than everything
 * else they do. tsc's per-module output stays beside the bundles for tests that load one module.
 */
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

/** ES modules have no `require`, `__filename` or `__dirname`; bundled CommonJS packages expect them. */
const COMMONJS_GLOBALS = [
  "import { createRequire as __bundleCreateRequire } from 'node:module';",
  "import { dirname as __bundleDirname } from 'node:path';",
  "import { fileURLToPath as __bundleFileURLToPath } from 'node:url';",
  'const require = __bundleCreateRequire(import.meta.url);',
  'const __filename = __bundleFileURLToPath(import.meta.url);',
  'const __dirname = __bundleDirname(__filename);',
].join('\n');

/**
 * `createRequire(import.meta.url)('<package path>')` loads a package at run time by name, which
 * esbuild cannot follow, so the package would have to be installed beside the bundle (the
 * calculator's evaluator loads mathjs's single-file build this way). The published package
 * installs no runtime dependencies: this plugin turns such a call in our own sources into a plain
 * `require()`, which esbuild bundles like any import. The output stays one file per program.
 */
const CREATE_REQUIRE_CALL = /\bcreateRequire\(import\.meta\.url\)\((\s*(['"])[^'"]+\2\s*)\)/g;
const bundleCreateRequire = {
  name: 'bundle-create-require',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /\.tsx?$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = await fs.promises.readFile(args.path, 'utf8');
      if (!source.includes('createRequire(import.meta.url)(')) return undefined;
      return {
        contents: source.replace(CREATE_REQUIRE_CALL, 'require($1)'),
        loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts',
      };
    });
  },
};

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outbase: '.',
  outdir: 'dist',
  allowOverwrite: true,
  banner: { js: COMMONJS_GLOBALS },
  // Ink loads React's devtools only when DEV=true; they are not a dependency.
  external: ['react-devtools-core'],
  // React picks its build from NODE_ENV. Its development build records a performance entry for
  // every render and never clears it, so a long chat would grow without bound: users get the
  // production build, chosen here, without changing the environment anyone else reads.
  define: { 'process.env.NODE_ENV': '"production"' },
  sourcemap: true,
  sourcesContent: false,
  logLevel: 'warning',
  metafile: true,
  plugins: [bundleCreateRequire],
};

/** What went into each output and what it imports: test/integration/bundle.test.ts checks it. */
const METAFILE = 'dist/bundle-meta.json';

/** The programs that ship: the CLI and the servers, over tsc's output in dist/. */
async function bundlePrograms() {
  // Chunk names carry a content hash: clear the last build's so none is left behind.
  fs.rmSync('dist/src/chunks', { recursive: true, force: true });
  const [cli, servers, page] = await Promise.all([
    // The CLI loads each command on use (`ask` never loads Ink): split so that stays true.
    build({
      ...common,
      entryPoints: ['src/cli.ts'],
      splitting: true,
      chunkNames: 'src/chunks/[name]-[hash]',
    }),
    // A server is one self-contained file; the evaluator child finds its file beside the calculator's.
    build({
      ...common,
      entryPoints: [
        'servers/calculator/main.ts',
        'servers/calculator/evaluator-child.ts',
        'servers/file/main.ts',
        'servers/research/main.ts',
        'servers/github/main.ts',
      ],
    }),
    // The page runs in the browser: its own bundle, without the Node banner.
    build({
      ...common,
      platform: 'browser',
      target: 'es2022',
      banner: {},
      entryPoints: ['web/page.ts'],
      minify: true,
      sourcemap: false,
    }),
  ]);
  const outputs = { ...cli.metafile.outputs, ...servers.metafile.outputs, ...page.metafile.outputs };
  fs.writeFileSync(METAFILE, JSON.stringify({ outputs }));
}

await bundlePrograms();
