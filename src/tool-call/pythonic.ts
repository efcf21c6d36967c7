/**
 * Reads the Python-style calls llama 3.2 was trained to emit:
 * `[evaluate(expression="2+2"), search_papers(topic="x", max_results=2)]`, and the
 * statements of Gemma 3's ```tool_code blocks, `print(evaluate(expression="2+2"))`.
 * Policy: keyword arguments with Python literal values only (strings, numbers,
 * True/False/None, lists, tuples, dicts); anything else is not a call. Depth-bounded.
 */

export interface PythonicCall {
  name: string;
  args: Record<string, unknown>;
}

// Real arguments nest a few levels; the bound keeps hostile input off the call stack.
const MAX_DEPTH = 32;
const IDENTIFIER = /[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*/y;
const NUMBER = /[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/y;
const WORD_VALUES: Record<string, unknown> = {
  True: true,
  False: false,
  None: null,
  true: true,
  false: false,
  null: null,
};
const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  '0': '\0',
  '\\': '\\',
  "'": "'",
  '"': '"',
};

/**
 * Thrown as a signal, one instance for all: most replies are not Python calls, and a new
 * Error per reply would capture a stack each time for nothing.
 */
const NOT_PYTHONIC = new Error('not a Python-style call');

class Reader {
  pos = 0;
  constructor(private readonly text: string) {}

  fail(): never {
    throw NOT_PYTHONIC;
  }

  skipSpace(): void {
    while (/\s/.test(this.text[this.pos] ?? '')) this.pos += 1;
  }

  peek(): string {
    this.skipSpace();
    return this.text[this.pos] ?? '';
  }

  expect(ch: string): void {
    if (this.peek() !== ch) this.fail();
    this.pos += 1;
  }

  /** Consumes `ch` if it is next. */
  accept(ch: string): boolean {
    if (this.peek() !== ch) return false;
    this.pos += 1;
    return true;
  }

  /** Consumes `word` when it is next and a `(` follows it (the parenthesis stays). */
  acceptWord(word: string): boolean {
    this.skipSpace();
    const after = this.text.slice(this.pos + word.length, this.pos + word.length + 8);
    if (!this.text.startsWith(word, this.pos) || !/^\s*\(/.test(after)) return false;
    this.pos += word.length;
    return true;
  }

  match(pattern: RegExp): string {
    this.skipSpace();
    pattern.lastIndex = this.pos;
    const found = pattern.exec(this.text);
    if (!found) this.fail();
    this.pos += found[0].length;
    return found[0];
  }

  atEnd(): boolean {
    return this.peek() === '';
  }

  string(): string {
    const quote = this.peek();
    const triple = this.text.startsWith(quote.repeat(3), this.pos);
    const delimiter = triple ? quote.repeat(3) : quote;
    this.pos += delimiter.length;
    let value = '';
    while (this.pos < this.text.length) {
      const ch = this.text[this.pos] ?? '';
      if (this.text.startsWith(delimiter, this.pos)) {
        this.pos += delimiter.length;
        return value;
      }
      if (ch === '\\') {
        value += this.escape();
        continue;
      }
      if (ch === '\n' && !triple) this.fail();
      value += ch;
      this.pos += 1;
    }
    return this.fail();
  }

  private escape(): string {
    const next = this.text[this.pos + 1] ?? '';
    const hexLength = next === 'u' ? 4 : next === 'x' ? 2 : 0;
    if (hexLength > 0) {
      const hex = this.text.slice(this.pos + 2, this.pos + 2 + hexLength);
      if (!new RegExp(`^[0-9a-fA-F]{${hexLength}}$`).test(hex)) this.fail();
      this.pos += 2 + hexLength;
      return String.fromCharCode(parseInt(hex, 16));
    }
    this.pos += 2;
    // Python keeps unknown escapes verbatim, backslash included.
    return ESCAPES[next] ?? `\\${next}`;
  }
}

function parseSequence(reader: Reader, close: string, depth: number): unknown[] {
  const items: unknown[] = [];
  while (!reader.accept(close)) {
    items.push(parseValue(reader, depth + 1));
    if (!reader.accept(',')) {
      reader.expect(close);
      break;
    }
  }
  return items;
}

// Entries become own properties via Object.fromEntries, so a `__proto__` key is data.
function parseDict(reader: Reader, depth: number): Record<string, unknown> {
  const entries: [string, unknown][] = [];
  while (!reader.accept('}')) {
    const key = parseValue(reader, depth + 1);
    if (typeof key !== 'string' && typeof key !== 'number') reader.fail();
    reader.expect(':');
    entries.push([String(key), parseValue(reader, depth + 1)]);
    if (!reader.accept(',')) {
      reader.expect('}');
      break;
    }
  }
  return Object.fromEntries(entries);
}

function parseValue(reader: Reader, depth: number): unknown {
  if (depth > MAX_DEPTH) reader.fail();
  const next = reader.peek();
  if (next === '"' || next === "'") return reader.string();
  if (next === '[' || next === '(') {
    reader.expect(next);
    return parseSequence(reader, next === '[' ? ']' : ')', depth);
  }
  if (next === '{') {
    reader.expect('{');
    return parseDict(reader, depth);
  }
  if (/[-+.\d]/.test(next)) return Number(reader.match(NUMBER));
  const word = reader.match(IDENTIFIER);
  if (!(word in WORD_VALUES)) reader.fail();
  return WORD_VALUES[word];
}

function parseCall(reader: Reader): PythonicCall {
  // `brave_search.call(...)` is llama 3.1's built-in-tool spelling of the same call.
  const name = reader.match(IDENTIFIER).replace(/\.call$/, '');
  reader.expect('(');
  const args: [string, unknown][] = [];
  while (!reader.accept(')')) {
    const key = reader.match(IDENTIFIER);
    if (key.includes('.')) reader.fail();
    reader.expect('=');
    args.push([key, parseValue(reader, 1)]);
    if (!reader.accept(',')) {
      reader.expect(')');
      break;
    }
  }
  return { name, args: Object.fromEntries(args) };
}

function attempt<T>(text: string, read: (reader: Reader) => T): T | undefined {
  const reader = new Reader(text);
  try {
    const value = read(reader);
    return reader.atEnd() ? value : undefined;
  } catch (error) {
    if (error === NOT_PYTHONIC) return undefined;
    throw error;
  }
}

/** `[f(a=1), g(b="x")]` → the calls in order; undefined when it is anything else. */
export function parsePythonicList(text: string): PythonicCall[] | undefined {
  const calls = attempt(text, (reader) => {
    reader.expect('[');
    const found: PythonicCall[] = [];
    while (!reader.accept(']')) {
      found.push(parseCall(reader));
      if (!reader.accept(',')) {
        reader.expect(']');
        break;
      }
    }
    return found;
  });
  return calls && calls.length > 0 ? calls : undefined;
}

/** One bare call, `f(a=1)`, as the whole text. */
export function parsePythonicCall(text: string): PythonicCall | undefined {
  return attempt(text, parseCall);
}

/**
 * Calls written as Python statements, one after another: `f(a=1)`, or Gemma 3's
 * `print(f(a=1))` in a ```tool_code block; newlines and `;` separate them.
 */
export function parsePythonicStatements(text: string): PythonicCall[] | undefined {
  const calls = attempt(text, (reader) => {
    const found: PythonicCall[] = [];
    while (!reader.atEnd()) {
      const printed = reader.acceptWord('print');
      if (printed) reader.expect('(');
      found.push(parseCall(reader));
      if (printed) reader.expect(')');
      reader.accept(';');
    }
    return found;
  });
  return calls && calls.length > 0 ? calls : undefined;
}
