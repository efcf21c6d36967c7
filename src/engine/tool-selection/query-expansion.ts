/**
 * What a request is widened with before the lexical search, at a lower weight than its own words.
 * Everyday words for the actions tool names are built from: a user "forgets" what a tool
 * `delete`s, "grabs a picture" a tool `screenshot`s, "hits" the key a tool `press`es. Everyday
 * words for the things software shows and keeps: a "popup" is a `dialog`, a "db" a `database`, a
 * "folder" a `directory`. Only words that mean the same whatever the server: no vocabulary of one
 * product. And the parameter a value is for, read from its form: a web address is a `url`, a file
 * name a `file` `path`, two numbers a tool's `number`s. An equivalent counts in full for a word no
 * tool uses (lexical-index.ts).
 */

/** Each line: words that name the same action in tool names and in requests. */
const ACTION_GROUPS = [
  'delete remove forget erase drop destroy discard purge trash',
  'create make add new insert append',
  'get read open show view fetch retrieve display see look',
  'list browse enumerate',
  'search find lookup locate query',
  'update edit change modify set patch alter adjust',
  'move rename relocate drag',
  'screenshot capture snapshot picture photo',
  'write save store',
  'navigate go visit goto',
  'press hit tap push',
  'type enter input fill',
  'upload attach',
  'download export',
  'close shut quit exit',
  'run execute evaluate invoke launch start trigger',
  'select pick choose',
  'send post submit',
  'reply comment respond',
  'stop cancel abort halt',
  'copy duplicate clone',
].map((line) => line.split(' '));

/**
 * Each line: words for one thing software shows or keeps, as tools and as people name it. Written
 * from the words of common servers' tools; the tool-selection bench reports recall on requests
 * held out of the tuning beside its corpus.
 */
const THING_GROUPS = [
  'dialog popup modal alert prompt confirmation',
  'field box textbox textarea input',
  'dropdown select menu picker combobox',
  'link url address hyperlink href',
  'website site webpage page',
  'folder directory dir',
  'size space bytes big large biggest largest',
  'tree hierarchy structure nested layout outline',
  'row record entry item',
  'column property field attribute',
  'table database db sheet spreadsheet',
  'user account member profile',
  'fact observation detail info information',
  'theme appearance scheme mode dark light',
  'log console output',
  'request network traffic',
  'key keyboard keystroke shortcut',
  'tab window',
  'title heading name',
  'text content body',
  'paper article preprint publication',
  'zip compress gzip archive',
  'accept confirm approve ok agree',
  'dismiss reject decline',
  'toggle switch flip',
].map((line) => line.split(' '));
const GROUPS = [...ACTION_GROUPS, ...THING_GROUPS];

/**
 * The equivalents of each word of `terms` (as `normalize` makes them), none of `terms` itself: the
 * other words of each action or thing it names.
 * `normalize` is the index's own term processing, so a group's words match as stemmed there.
 */
export function equivalents(terms: string[], normalize: (word: string) => string | null): string[] {
  const groups = normalizedGroups(normalize);
  const own = new Set(terms);
  const added = new Set<string>();
  for (const term of own) {
    for (const group of groups.get(term) ?? []) {
      for (const word of group) if (!own.has(word)) added.add(word);
    }
  }
  return [...added];
}

let normalized: { normalize: (word: string) => string | null; groups: Map<string, string[][]> } | undefined;

/** The groups by each of their normalized words, worked out once per normalizer. */
function normalizedGroups(normalize: (word: string) => string | null): Map<string, string[][]> {
  if (normalized?.normalize !== normalize) {
    const groups = new Map<string, string[][]>();
    for (const line of GROUPS) {
      const words = [...new Set(line.flatMap((word) => normalize(word) ?? []))];
      for (const word of words) groups.set(word, [...(groups.get(word) ?? []), words]);
    }
    normalized = { normalize, groups };
  }
  return normalized.groups;
}

/** Extensions of files people name in requests: a word ending in one is a file, not `document.title`. */
const FILE_EXTENSIONS = new Set(
  (
    'txt md markdown json jsonl yaml yml toml ini cfg conf env log csv tsv xml html htm css js mjs cjs ts tsx jsx ' +
    'py rb go rs java c h cpp sh sql pdf doc docx xls xlsx ppt pptx odt png jpg jpeg gif svg webp bmp ico mp3 wav ' +
    'mp4 mov zip gz tgz tar lock'
  ).split(' '),
);
/** Top-level domains common enough that `name.tld` is a site, not a file or a property. */
const DOMAINS = new Set('com org net io dev app ai co edu gov info me us uk de fr eu'.split(' '));

/**
 * The words of the parameter a value in the request is for: a web address goes to a `url`, a file
 * name or path to a `path` of a `file`, a property access such as `document.title` to `code` or a
 * `function`, two numbers or more to a tool's `number`s. Read from the value's form, so they hold for
 * any server.
 */
export function valueHints(text: string): string[] {
  const hints = new Set<string>();
  // Two numbers or more are what a tool's number parameters take ("add 3 and 4"); one is often a name ("Sprint 12").
  if ((text.match(NUMERAL) ?? []).length >= 2) hints.add('number');
  for (const token of text.split(/[\s"'`()<>,;]+/)) {
    const word = token.replace(/[.?!:]+$/, '');
    // An e-mail address is neither, though it ends in a domain.
    if (word.includes('@')) continue;
    const host = word.replace(SCHEME, '').split(/[/?#:]/)[0] ?? '';
    const domain = /^\w[\w-]*(?:\.[\w-]+)*\.([a-z]+)$/i.exec(host)?.[1]?.toLowerCase();
    if (SCHEME.test(word) || (domain !== undefined && DOMAINS.has(domain))) hints.add('url');
    else if (isFileOrPath(word)) {
      hints.add('file');
      hints.add('path');
    } else if (PROPERTY_ACCESS.test(word)) for (const hint of CODE_HINTS) hints.add(hint);
  }
  return [...hints];
}

/**
 * Code quoted in a request: a property access such as `document.title` (a file or a site was ruled
 * out before). Two letters a part at least, so `e.g` is not code.
 */
const PROPERTY_ACCESS = /^[A-Za-z_$][\w$]+(?:\.[A-Za-z_$][\w$]+)+$/;
/** The words of the parameters code goes to. */
const CODE_HINTS = ['code', 'function', 'javascript'];

/** A number standing alone: `3`, `1,234.5`, `18%`; not the digits of `Q4`, `v2.1` or `2024-05-01.md`. */
const NUMERAL = /(?<![\w.-])\d+(?:[.,]\d+)*%?(?![\w.-])/g;

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/** `~/x`, `./x`, `/x`, `x/`, `a/b/c`: one slash between two words (`and/or`) is not enough. */
function isPath(word: string): boolean {
  return /^(?:~|\.{1,2})?\/[\w.-]/.test(word) || /^[\w.-]+\/$/.test(word) || /^[\w.-]+(?:\/[\w.-]+){2,}\/?$/.test(word);
}

/**
 * The request without the paths and file names in it: their words are names the user chose ("in
 * ~/site/about.html" is about no web site), and the parameter they are for is read from their
 * form (`valueHints`).
 */
export function withoutPaths(text: string): string {
  return text
    .split(/(\s+)/)
    .map((token) => {
      const word = token.replace(/^["'`(<]+|[.?!:,;)>"'`]+$/g, '');
      return isFileOrPath(word) ? ' ' : token;
    })
    .join('');
}

function isFileOrPath(word: string): boolean {
  const extension = /\.([a-z0-9]+)$/i.exec(word)?.[1]?.toLowerCase();
  return isPath(word) || (extension !== undefined && FILE_EXTENSIONS.has(extension));
}
