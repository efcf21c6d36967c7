/**
 * An esbuild plugin that gives the bundled Ink bounded caches kept from one frame to the next
 * (src/ui/ink-patch/recent-cache.ts says why). Ink 6.8 keeps every text it measured or wrapped in
 * module-level maps that only grow, and makes a fresh set of layout caches for every frame, so the
 * live area is split into styled cells anew each time; it draws every row of the live area
 * into a grid of cells and back into a string at every frame, though most rows are as they were;
 * and it keeps every line it wrote to the scrollback (src/ui/ink-patch/last-screens.ts says why
 * only the last screens are kept).
 * Each edit below names the exact text it replaces (the one method replaced whole, by the hash of
 * its text); when an Ink release changes that text the build stops and says which file to
 * review, rather than shipping an Ink that is patched in part.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const RECENT_CACHE = fileURLToPath(new URL('../src/ui/ink-patch/recent-cache.ts', import.meta.url));
const LAST_SCREENS = fileURLToPath(new URL('../src/ui/ink-patch/last-screens.ts', import.meta.url));
/**
 * Entries per generation. A bounded cache still grows until it is full, so each is sized to what
 * one frame uses, to be full within the first turns: the live area's texts and lines (a line's
 * styled cells take about 100 bytes a character), and for widths, also every character drawn.
 */
const TEXTS = 'new RecentCache(100)';
const WIDTHS = 'new RecentCache(500)';

/** Per file of ink/build: the text that is there, and what it becomes. */
const EDITS = {
  // The scrollback written so far, as kept for the redraw of a frame as tall as the terminal (not the debug mode's).
  'ink/build/ink.js': [
    [
      `        if (hasStaticOutput) {
            this.fullStaticOutput += staticOutput;
        }
        // Detect fullscreen`,
      `        if (hasStaticOutput) {
            this.fullStaticOutput = lastScreens(this.fullStaticOutput + staticOutput, this.options.stdout.rows);
        }
        // Detect fullscreen`,
    ],
  ],
  'ink/build/measure-text.js': [['const cache = new Map();', `const cache = ${TEXTS};`]],
  'ink/build/wrap-text.js': [
    ['const cache = {};', `const cache = ${TEXTS};`],
    ['const cachedText = cache[cacheKey];', 'const cachedText = cache.get(cacheKey);'],
    ['cache[cacheKey] = wrappedText;', 'cache.set(cacheKey, wrappedText);'],
  ],
  'ink/build/output.js': [
    ['    widths = new Map();', `    widths = ${WIDTHS};`],
    ['    blockWidths = new Map();', `    blockWidths = ${TEXTS};`],
    ['    styledChars = new Map();', `    styledChars = ${TEXTS};`],
    // Printable ASCII is one cell per character with no style: no need for the tokenizer's grapheme segmenter.
    [
      'cached = styledCharsFromTokens(tokenize(line));',
      "cached = /^[\\x20-\\x7e]*$/.test(line) ? Array.from(line, (value) => ({ type: 'char', value, fullWidth: false, styles: [] })) : styledCharsFromTokens(tokenize(line));",
    ],
    // One set of caches for every frame (Output is made anew for each), declared below the class.
    ['    caches = new OutputCaches();', '    caches = FRAME_CACHES;'],
    [
      'export default class Output {',
      `const FRAME_CACHES = new OutputCaches();\nconst DRAWN_ROWS = ${TEXTS};\nconst BLANK_CELL = { type: 'char', value: ' ', fullWidth: false, styles: [] };\nconst PLAIN_TEXT = /^[\\x20-\\x7e]*$/;\nexport default class Output {`,
    ],
  ],
  // Ink measures each text node's widest line at every frame, uncached: a streamed reply's lines
  // are measured again each time, though only its last one is new.
  'widest-line/index.js': [
    [
      'lineWidth = Math.max(lineWidth, stringWidth(line));',
      `let width = LINE_WIDTHS.get(line);
		if (width === undefined) LINE_WIDTHS.set(line, (width = stringWidth(line)));
		lineWidth = Math.max(lineWidth, width);`,
    ],
    ['export default function widestLine', `const LINE_WIDTHS = ${TEXTS};\nexport default function widestLine`],
  ],
};

/**
 * Output's `get`, which turns a frame's writes into its text, replaced by one that draws a row
 * only when it was written with pieces (x and line) no row had before: a streamed reply moves its
 * lines up a row at a time and the rest of the live area stays, so most rows are found drawn.
 * The same text results: writes are clipped, transformed and laid down in the same order, and a
 * row's text depends on nothing but its pieces and the width (test/integration/ink-output-rows
 * compares the two on random frames).
 */
const OUTPUT_GET = {
  sha256: '7da0e35e96e14b583b4eb4fd93a6152563dbddcf5b65bddca8a0022044149542',
  replacement: `    get() {
        const rows = Array.from({ length: this.height }, () => []);
        const clips = [];
        for (const operation of this.operations) {
            if (operation.type === 'clip') clips.push(operation.clip);
            else if (operation.type === 'unclip') clips.pop();
            else if (operation.type === 'write') this.placeWrite(operation, clips.at(-1), rows);
        }
        const output = rows.map((pieces) => {
            const key = \`\${this.width}\\u0000\${pieces.join('\\u0000')}\`;
            let text = DRAWN_ROWS.get(key);
            if (text === undefined) DRAWN_ROWS.set(key, (text = this.drawRow(pieces)));
            return text;
        });
        return { output: output.join('\\n'), height: rows.length };
    }
    /** Adds a write's lines, clipped and transformed, to the pieces of the rows they fall on. */
    placeWrite({ text, transformers, x, y }, clip, rows) {
        let lines = text.split('\\n');
        if (clip) {
            const horizontal = typeof clip.x1 === 'number' && typeof clip.x2 === 'number';
            const vertical = typeof clip.y1 === 'number' && typeof clip.y2 === 'number';
            if (horizontal && (x + this.caches.getWidestLine(text) < clip.x1 || x > clip.x2)) return;
            if (vertical && (y + lines.length < clip.y1 || y > clip.y2)) return;
            if (horizontal) {
                const left = Math.max(0, clip.x1 - x);
                lines = lines.map((line) => sliceAnsi(line, left, Math.min(this.caches.getStringWidth(line), clip.x2 - x)));
                x = Math.max(x, clip.x1);
            }
            if (vertical) {
                lines = lines.slice(Math.max(0, clip.y1 - y), Math.min(lines.length, clip.y2 - y));
                y = Math.max(y, clip.y1);
            }
        }
        // A write that starts above the frame is dropped whole, and one that runs below it is cut there, as Ink does.
        if (y < 0) return;
        lines.slice(0, Math.max(0, rows.length - y)).forEach((line, index) => {
            const transformed = transformers.reduce((result, transformer) => transformer(result, index), line);
            rows[y + index].push(x, transformed);
        });
    }
    /** A row's text: blank cells, each piece's styled characters laid over them (a wide one takes two), trailing space cut. */
    drawRow(pieces) {
        // Only at whole columns within the row: elsewhere the cells' array has holes, or indexes that are no cells.
        const plain = pieces.every((piece, at) =>
            at % 2 === 0 ? Number.isInteger(piece) && piece >= 0 && piece <= this.width : PLAIN_TEXT.test(piece),
        );
        if (plain) return this.drawPlainRow(pieces);
        const cells = new Array(this.width).fill(BLANK_CELL);
        for (let at = 0; at < pieces.length; at += 2) {
            let column = pieces[at];
            for (const character of this.caches.getStyledChars(pieces[at + 1])) {
                cells[column] = character;
                const width = Math.max(1, this.caches.getStringWidth(character.value));
                for (let extra = 1; extra < width; extra++) {
                    cells[column + extra] = { type: 'char', value: '', fullWidth: false, styles: character.styles };
                }
                column += width;
            }
        }
        return styledCharsToString(cells.filter((cell) => cell !== undefined)).trimEnd();
    }
    /**
     * The same for a row of printable ASCII only (a streamed reply's prose): a character a cell and
     * no styles, so the pieces are laid over the blank row as strings, with no cell made for each.
     */
    drawPlainRow(pieces) {
        let row = ' '.repeat(this.width);
        for (let at = 0; at < pieces.length; at += 2) {
            const column = pieces[at];
            const text = pieces[at + 1];
            row = row.slice(0, column) + text + row.slice(column + text.length);
        }
        return row.trimEnd();
    }
`,
};

/** `source` with the method that starts at `start` (up to its closing brace) replaced, if its text hashes to `sha256`. */
function replaceMethod(file, source, start, { sha256, replacement }) {
  const from = source.indexOf(start);
  const end = source.indexOf('\n    }\n', from);
  const method = from < 0 || end < 0 ? '' : source.slice(from, end + '\n    }\n'.length);
  const hash = createHash('sha256').update(method).digest('hex');
  if (hash !== sha256) {
    throw new Error(
      `${file} has a different ${JSON.stringify(start.trim())} (sha256 ${hash}): review scripts/ink-caches.mjs for this Ink release`,
    );
  }
  // A function, so `$` in the replacement is taken as written, never as a replacement pattern.
  return source.replace(method, () => replacement);
}

/** The files edited, as `EDITS` names them: the part of the path after `node_modules/`. */
const EDITED_FILE =
  /[\\/]node_modules[\\/]((?:ink[\\/]build[\\/](?:measure-text|wrap-text|output|ink)|widest-line[\\/]index)\.js)$/;

/** What an edited file imports for its edits. */
const importsFor = (file) =>
  file === 'ink/build/ink.js'
    ? `import { lastScreens } from ${JSON.stringify(LAST_SCREENS)};\n`
    : `import { RecentCache } from ${JSON.stringify(RECENT_CACHE)};\n`;

/** `source` with every edit for `file` made, or an error naming the first that no longer applies. */
export function patchInkSource(file, source) {
  let patched = source;
  for (const [from, to] of EDITS[file]) {
    if (!patched.includes(from)) {
      throw new Error(
        `${file} no longer contains ${JSON.stringify(from)}: review scripts/ink-caches.mjs for this Ink release`,
      );
    }
    patched = patched.replace(from, () => to);
  }
  if (file === 'ink/build/output.js') patched = replaceMethod(file, patched, '    get() {', OUTPUT_GET);
  return `${importsFor(file)}${patched}`;
}

export const inkCaches = {
  name: 'ink-caches',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: EDITED_FILE }, async (args) => ({
      contents: patchInkSource(
        (EDITED_FILE.exec(args.path)?.[1] ?? '').replaceAll('\\', '/'),
        await fs.promises.readFile(args.path, 'utf8'),
      ),
      resolveDir: path.dirname(args.path),
      loader: 'js',
    }));
  },
};
