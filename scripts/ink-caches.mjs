/**
 * An esbuild plugin that gives the bundled Ink bounded caches kept from one frame to the next
 * (src/ui/ink-patch/recent-cache.ts says why). Ink 6.8 keeps every text it measured or wrapped in
 * module-level maps that only grow, and makes a fresh set of layout caches for every frame, so the
 * live area is split into styled cells anew each time. Each edit below names the exact text it
 * replaces; when an Ink release changes that text the build stops and says which file to review,
 * rather than shipping an Ink that is patched in part.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const RECENT_CACHE = fileURLToPath(new URL('../src/ui/ink-patch/recent-cache.ts', import.meta.url));
/**
 * Entries per generation. A bounded cache still grows until it is full, so each is sized to what
 * one frame uses, to be full within the first turns: the live area's texts and lines (a line's
 * styled cells take about 100 bytes a character), and for widths, also every character drawn.
 */
const TEXTS = 'new RecentCache(100)';
const WIDTHS = 'new RecentCache(500)';

/** Per file of ink/build: the text that is there, and what it becomes. */
const EDITS = {
  'measure-text.js': [['const cache = new Map();', `const cache = ${TEXTS};`]],
  'wrap-text.js': [
    ['const cache = {};', `const cache = ${TEXTS};`],
    ['const cachedText = cache[cacheKey];', 'const cachedText = cache.get(cacheKey);'],
    ['cache[cacheKey] = wrappedText;', 'cache.set(cacheKey, wrappedText);'],
  ],
  'output.js': [
    ['    widths = new Map();', `    widths = ${WIDTHS};`],
    ['    blockWidths = new Map();', `    blockWidths = ${TEXTS};`],
    ['    styledChars = new Map();', `    styledChars = ${TEXTS};`],
    // One set of caches for every frame (Output is made anew for each), declared below the class.
    ['    caches = new OutputCaches();', '    caches = FRAME_CACHES;'],
    ['export default class Output {', 'const FRAME_CACHES = new OutputCaches();\nexport default class Output {'],
  ],
};

const INK_BUILD_FILE = /[\\/]node_modules[\\/]ink[\\/]build[\\/](measure-text|wrap-text|output)\.js$/;

/** `source` with every edit for `file` made, or an error naming the first that no longer applies. */
export function patchInkSource(file, source) {
  let patched = source;
  for (const [from, to] of EDITS[file]) {
    if (!patched.includes(from)) {
      throw new Error(
        `ink/build/${file} no longer contains ${JSON.stringify(from)}: review scripts/ink-caches.mjs for this Ink release`,
      );
    }
    patched = patched.replace(from, to);
  }
  return `import { RecentCache } from ${JSON.stringify(RECENT_CACHE)};\n${patched}`;
}

export const inkCaches = {
  name: 'ink-caches',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: INK_BUILD_FILE }, async (args) => ({
      contents: patchInkSource(path.basename(args.path), await fs.promises.readFile(args.path, 'utf8')),
      resolveDir: path.dirname(args.path),
      loader: 'js',
    }));
  },
};
