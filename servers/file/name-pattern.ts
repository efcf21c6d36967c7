/**
 * Name matching for search_files: a glob (`*`, `**`, `?`, `[abc]`, `{a,b}`) or, when the
 * pattern has no glob characters, a substring. Case-insensitive, since models guess case.
 */

export type NameMatcher = (relativePath: string, name: string) => boolean;

const GLOB_CHARS = /[*?[{]/;

function escapeRegex(char: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(char) ? `\\${char}` : char;
}

/** Translates `[...]` starting at `start`; returns undefined when it is not a closed class. */
function charClass(pattern: string, start: number): { source: string; end: number } | undefined {
  const close = pattern.indexOf(']', start + 2);
  if (close === -1) return undefined;
  let body = pattern.slice(start + 1, close);
  const negate = body.startsWith('!') || body.startsWith('^');
  if (negate) body = body.slice(1);
  const escaped = body.replace(/[\\\]^]/g, (c) => `\\${c}`);
  return { source: `[${negate ? '^' : ''}${escaped}]`, end: close };
}

/** Translates a glob to an anchored regular expression; `/` is the only separator. */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  let inBraces = false;
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] as string;
    if (char === '*' && glob[i + 1] === '*') {
      const slashFollows = glob[i + 2] === '/';
      source += slashFollows ? '(?:.*/)?' : '.*';
      i += slashFollows ? 2 : 1;
    } else if (char === '*') {
      source += '[^/]*';
    } else if (char === '?') {
      source += '[^/]';
    } else if (char === '[') {
      const cls = charClass(glob, i);
      source += cls ? cls.source : '\\[';
      if (cls) i = cls.end;
    } else if (char === '{' && !inBraces && glob.includes('}', i)) {
      inBraces = true;
      source += '(?:';
    } else if (char === '}' && inBraces) {
      inBraces = false;
      source += ')';
    } else if (char === ',' && inBraces) {
      source += '|';
    } else {
      source += escapeRegex(char);
    }
  }
  return new RegExp(`^${source}$`, 'i');
}

export function makeNameMatcher(pattern: string): NameMatcher {
  if (!GLOB_CHARS.test(pattern)) {
    const needle = pattern.toLowerCase();
    return (_relativePath, name) => name.toLowerCase().includes(needle);
  }
  const regex = globToRegExp(pattern);
  // A pattern with a slash is about where a file is; one without is about its name.
  return pattern.includes('/') ? (relativePath) => regex.test(relativePath) : (_relativePath, name) => regex.test(name);
}
