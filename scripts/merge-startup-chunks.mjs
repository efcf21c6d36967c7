/**
 * Third build step, over the CLI's split output: merges every chunk that always loads with the
 * command line's `main` into main's own file. Why: esbuild gives each set of entry points that share
 * a module a chunk of its own, so what `main` imports (errors, paths, the config, the log, zod, …)
 * came as more than a dozen files, most under 3 kB, loaded one after another on every start; Node 20 pays
 * close to a millisecond of CPU for each ESM file it resolves, reads and links. Chunks the
 * executable itself imports before it turns the compile cache on (src/cli.ts) stay apart.
 *
 * How: esbuild bundles main with those chunks again, as ES modules, into one file that also exports
 * what each merged chunk exported, under a name that says which chunk it came from; every other
 * chunk's import of a merged chunk is rewritten to import that name from main's file. Evaluation
 * order is unchanged (main's static imports were evaluated before main in any case), and so is
 * every file the command line loads later. The build's account of itself (dist/bundle-meta.json)
 * is rewritten to match.
 */
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

/** The output built from `entryPoint`. */
function outputOf(outputs, entryPoint) {
  const file = Object.keys(outputs).find((name) => outputs[name].entryPoint === entryPoint);
  if (!file) throw new Error(`scripts/merge-startup-chunks.mjs: no output for ${entryPoint}`);
  return file;
}

/** `file` and every output it imports statically, directly or not. */
function loadedWith(outputs, file) {
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const imported of outputs[name].imports) {
      if (!imported.external && imported.kind === 'import-statement') visit(imported.path);
    }
  };
  visit(file);
  return seen;
}

/** The name under which main's file exports `name` of the merged chunk `chunk`. */
const mergedName = (chunk, name) => `${path.basename(chunk, '.js').replace(/[^A-Za-z0-9_$]/g, '_')}$${name}`;

/** One file's import statements, as esbuild writes them: `import { a, b as c } from "./x.js";` or `import "./x.js";`. */
const IMPORT_STATEMENT = /^import\s*(?:\{([^}]*)\}\s*from\s*)?"(\.\/[^"]+\.js)";$/gm;
const IMPORTED_NAME = /([A-Za-z_$][\w$]*)(\s+as\s+[A-Za-z_$][\w$]*)?/g;

/**
 * `source`, the output `file`, with its imports of merged chunks taken from `mainFile` instead.
 * Line breaks are kept, so the file's source map still fits it.
 */
function importFromMain(source, file, merged, mainFile) {
  const main = `./${path.relative(path.dirname(file), mainFile).split(path.sep).join('/')}`;
  return source.replace(IMPORT_STATEMENT, (statement, names, specifier) => {
    const chunk = path.join(path.dirname(file), specifier);
    if (!merged.has(chunk) || chunk === mainFile) return statement;
    if (names === undefined) return `import "${main}";`;
    const renamed = names.replace(
      IMPORTED_NAME,
      (_, name, alias) => `${mergedName(chunk, name)}${alias ?? ` as ${name}`}`,
    );
    return `import {${renamed}} from "${main}";`;
  });
}

/** `outputs` (esbuild's metafile outputs of the CLI's build), after merging: the files and the account both. */
export async function mergeStartupChunks(outputs, { executable, main }) {
  const executableFile = outputOf(outputs, executable);
  const mainFile = outputOf(outputs, main);
  const beforeCache = loadedWith(outputs, executableFile);
  const merged = new Set([...loadedWith(outputs, mainFile)].filter((file) => !beforeCache.has(file)));
  const directory = path.dirname(mainFile);

  const entry = [
    `export * from "./${path.basename(mainFile)}";`,
    ...[...merged]
      .filter((chunk) => chunk !== mainFile && outputs[chunk].exports.length > 0)
      .map((chunk) => {
        const names = outputs[chunk].exports.map((name) => `${name} as ${mergedName(chunk, name)}`);
        return `export { ${names.join(', ')} } from "./${path.basename(chunk)}";`;
      }),
  ].join('\n');
  const result = await build({
    stdin: { contents: entry, resolveDir: directory, sourcefile: 'merged-startup-chunks.js' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: mainFile,
    allowOverwrite: true,
    sourcemap: true,
    sourcesContent: false,
    logLevel: 'warning',
    metafile: true,
    plugins: [
      {
        name: 'only-merged-chunks',
        setup(pluginBuild) {
          // Merged chunks are bundled; everything else (chunks loaded later, Node's built-ins) stays an import.
          pluginBuild.onResolve({ filter: /.*/ }, (args) => {
            const file = path.relative(process.cwd(), path.resolve(args.resolveDir, args.path));
            return merged.has(file) ? { path: path.resolve(file) } : { path: args.path, external: true };
          });
        },
      },
    ],
  });
  if (result.errors.length > 0) throw new Error('scripts/merge-startup-chunks.mjs: the merge failed');

  const rewritten = {};
  for (const [file, output] of Object.entries(outputs)) {
    const code = file.replace(/\.map$/, '');
    if (merged.has(code) && code !== mainFile) {
      fs.rmSync(file, { force: true });
      continue;
    }
    if (file.endsWith('.js') && file !== mainFile) {
      const source = fs.readFileSync(file, 'utf8');
      const changed = importFromMain(source, file, merged, mainFile);
      for (const chunk of merged) {
        if (chunk !== mainFile && changed.includes(path.basename(chunk))) {
          throw new Error(`scripts/merge-startup-chunks.mjs: ${file} still names ${chunk} after the merge`);
        }
      }
      if (changed !== source) fs.writeFileSync(file, changed);
    }
    rewritten[file] = redirectImports(output, merged, mainFile);
  }
  const { exports, bytes } = result.metafile.outputs[mainFile];
  rewritten[mainFile] = { ...mergedOutput(outputs, merged, mainFile), exports, bytes };
  return rewritten;
}

/** `imports` with each kind of import of each path once. */
function eachOnce(imports) {
  return [...new Map(imports.map((imported) => [`${imported.kind} ${imported.path}`, imported])).values()];
}

/** `output`'s account with its imports of merged chunks pointing at main's file instead, each once. */
function redirectImports(output, merged, mainFile) {
  const imports = output.imports.map((imported) =>
    merged.has(imported.path) && !imported.external ? { ...imported, path: mainFile } : imported,
  );
  return { ...output, imports: eachOnce(imports) };
}

/** The account of main's file after the merge: every merged chunk's inputs and outside imports. */
function mergedOutput(outputs, merged, mainFile) {
  const inputs = {};
  const imports = [];
  for (const file of merged) {
    Object.assign(inputs, outputs[file].inputs);
    imports.push(...outputs[file].imports.filter((imported) => imported.external || !merged.has(imported.path)));
  }
  return { ...outputs[mainFile], inputs, imports: eachOnce(imports) };
}
