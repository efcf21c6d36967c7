/**
 * Two packages the chat loads at every start, as the build patches them to set up on first use
 * (scripts/on-first-use.mjs), against the packages themselves:
 * - string-width (Ink's) measures every text as before, though it builds its pattern of RGI emoji
 *   only for text that can hold one: each code point of the blocks where emoji live, alone and with
 *   what makes an emoji of it (U+FE0F, a keycap, a skin tone), every flag, tag sequences, ZWJ
 *   sequences, and random strings of all these parts and plain text;
 * - marked-terminal loads cli-highlight (and highlight.js with it) on its first code block, not as
 *   it loads, and highlights that block as before.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/server-configs.js';

type StringWidth = (text: string) => number;

let directory: string;
let onFirstUse: Plugin;

/** `file` of node_modules bundled as the build bundles it (with the on-first-use plugin), into `outfile`. */
async function bundled(file: string, outfile: string, external: string[] = []): Promise<string> {
  const target = path.join(directory, outfile);
  await build({
    entryPoints: [path.join(REPO_ROOT, 'node_modules', file)],
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile: target,
    external,
    // As scripts/bundle.mjs does, the bundled CommonJS packages get a `require`: here one that
    // resolves from the project, where the packages left outside are installed.
    banner: {
      js: `import { createRequire } from 'node:module'; const require = createRequire(${JSON.stringify(pathToFileURL(path.join(REPO_ROOT, 'package.json')).href)});`,
    },
    plugins: [onFirstUse],
    logLevel: 'silent',
  });
  return target;
}

beforeAll(async () => {
  directory = fs.mkdtempSync(path.join(os.tmpdir(), 'on-first-use-'));
  ({ onFirstUse } = (await import(pathToFileURL(path.join(REPO_ROOT, 'scripts/on-first-use.mjs')).href)) as {
    onFirstUse: Plugin;
  });
});

afterAll(() => fs.rmSync(directory, { recursive: true, force: true }));

const VS16 = '\uFE0F';
const KEYCAP = '\u20E3';
const ZWJ = '\u200D';
const SKIN_TONES = ['\u{1F3FB}', '\u{1F3FC}', '\u{1F3FD}', '\u{1F3FE}', '\u{1F3FF}'];
const TAG_END = '\u{E007F}';

const codePoints = (from: number, to: number): string[] =>
  Array.from({ length: to - from + 1 }, (_, offset) => String.fromCodePoint(from + offset)).filter(
    (text) => !/^\p{Surrogate}$/u.test(text),
  );
/** The blocks that hold emoji and what combines with them: Latin-1 to the CJK symbols, variation selectors, the emoji planes, tags. */
const EMOJI_BLOCKS = [
  ...codePoints(0x20, 0x33ff),
  ...codePoints(0xfe00, 0xffff),
  ...codePoints(0x1f000, 0x1fbff),
  ...codePoints(0xe0000, 0xe007f),
];
const REGIONAL_INDICATORS = codePoints(0x1f1e6, 0x1f1ff);
const PICTOGRAPHS = EMOJI_BLOCKS.filter((text) => /\p{Extended_Pictographic}/u.test(text));

describe("the build's string-width", () => {
  let original: StringWidth;
  let patched: StringWidth;

  beforeAll(async () => {
    original = ((await import('string-width')) as { default: StringWidth }).default;
    const file = await bundled('string-width/index.js', 'string-width.mjs');
    patched = ((await import(pathToFileURL(file).href)) as { default: StringWidth }).default;
  });

  const differences = (texts: string[]): Array<{ text: string; original: number; patched: number }> =>
    texts
      .map((text) => ({ text, original: original(text), patched: patched(text) }))
      .filter((width) => width.original !== width.patched);

  it('measures each code point of the emoji blocks as the package does, alone and made an emoji', () => {
    const texts = EMOJI_BLOCKS.flatMap((text) => [text, text + VS16, text + KEYCAP, text + VS16 + KEYCAP]);
    expect(differences(texts)).toEqual([]);
    // The cases reach the pattern: keycaps and emoji presentations are two cells wide.
    expect([original('1' + VS16 + KEYCAP), patched('#' + VS16 + KEYCAP), patched('\u2764' + VS16)]).toEqual([2, 2, 2]);
  });

  it('measures every pair of regional indicators (flags or not), skin tones, tag sequences and ZWJ sequences as the package does', () => {
    const flags = REGIONAL_INDICATORS.flatMap((first) => REGIONAL_INDICATORS.map((second) => first + second));
    const toned = PICTOGRAPHS.flatMap((text) => SKIN_TONES.map((tone) => text + tone));
    const tagged = ['gbeng', 'gbsct', 'gbwls', 'usca', 'zz'].map(
      (tags) =>
        '\u{1F3F4}' + [...tags].map((tag) => String.fromCodePoint(0xe0000 + tag.charCodeAt(0))).join('') + TAG_END,
    );
    const joined = PICTOGRAPHS.map((text, index) => text + ZWJ + (PICTOGRAPHS[(index * 7) % PICTOGRAPHS.length] ?? ''));
    expect(differences([...flags, ...toned, ...tagged, ...joined])).toEqual([]);
    expect(['🇫🇷', '👍🏽', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', '👩‍👩‍👧'].map(patched)).toEqual([2, 2, 2, 2]);
  });

  it('measures random texts of emoji parts, CJK, combining marks and plain text as the package does', () => {
    const part = fc.oneof(
      fc.constantFrom(...PICTOGRAPHS, ...REGIONAL_INDICATORS, ...SKIN_TONES, VS16, KEYCAP, ZWJ, TAG_END),
      fc.constantFrom('a', ' ', '1', '#', '*', 'é', '\u0301', '中', '한', '\u1100', '\u1161', '·', '✓', '›', '\t'),
      fc.integer({ min: 0xe0020, max: 0xe007e }).map((tag) => String.fromCodePoint(tag)),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        expect(patched(text)).toBe(original(text));
      }),
      { numRuns: 5_000 },
    );
  });
});

describe("the build's marked-terminal", () => {
  /** Run in a process of its own: chalk reads FORCE_COLOR as it loads, and Node's `require.cache` shows what was loaded. */
  function render(file: string): { loadedAtImport: boolean; loadedAfterCode: boolean; text: string } {
    const script = [
      "import { createRequire } from 'node:module';",
      "import { Marked } from 'marked';",
      `const { markedTerminal } = await import(${JSON.stringify(pathToFileURL(file).href)});`,
      'const require = createRequire(import.meta.url);',
      "const cliHighlight = require.resolve('cli-highlight');",
      'const loadedAtImport = cliHighlight in require.cache;',
      'const marked = new Marked(markedTerminal());',
      "const text = marked.parse('Some *prose*.\\n\\n```js\\nconst answer = 42; // the answer\\n```\\n');",
      'const loadedAfterCode = cliHighlight in require.cache;',
      'process.stdout.write(JSON.stringify({ loadedAtImport, loadedAfterCode, text }));',
    ].join('\n');
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      env: { ...process.env, FORCE_COLOR: '3' },
    });
    expect(run.stderr).toBe('');
    return JSON.parse(run.stdout) as { loadedAtImport: boolean; loadedAfterCode: boolean; text: string };
  }

  it('loads cli-highlight on its first code block, not as it loads, and highlights the block as the package does', async () => {
    // cli-highlight left outside the bundle, so that Node's loader shows when it is required.
    const file = await bundled('marked-terminal/index.js', 'marked-terminal.mjs', ['cli-highlight', 'marked']);
    const asBuilt = render(file);
    const asPublished = render(path.join(REPO_ROOT, 'node_modules/marked-terminal/index.js'));
    expect(asPublished.loadedAtImport).toBe(true);
    expect(asBuilt).toEqual({ loadedAtImport: false, loadedAfterCode: true, text: asPublished.text });
    // Highlighted: the number and the comment in colours of their own.
    expect(asBuilt.text).toMatch(/\u001b\[[\d;]+m42\u001b/);
  });
});
