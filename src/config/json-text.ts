/**
 * Reads a config file as JSON, with a line and column on every syntax error. Node 20's
 * `JSON.parse` gives no position for the most common mistakes (comments, single quotes,
 * a bare word), so a small strict scanner locates the first error itself.
 */
import { ConfigError, errorMessage } from '../shared/errors.js';
import { NotARegularFile, readRegularFile } from './regular-file.js';

/** Parses `file`; every failure is a ConfigError naming the file. */
export function readJsonFile(file: string): unknown {
  return parseJsonText(file, readConfigBytes(file));
}

/** The file's bytes, read once: a caller that hashes them parses these same bytes (parseJsonText). */
export function readConfigBytes(file: string): Buffer {
  try {
    return readRegularFile(file);
  } catch (error) {
    if (error instanceof NotARegularFile) {
      throw new ConfigError(`cannot use config ${error.message}`, 'Pass the path of a JSON file with --config');
    }
    throw new ConfigError(`cannot read config ${file}: ${errorMessage(error)}`);
  }
}

/** Parses bytes already read from `file` (named in errors). */
export function parseJsonText(file: string, content: Buffer): unknown {
  let text = content.toString('utf8');
  // Editors on Windows save a byte-order mark that JSON.parse rejects.
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const offset = jsonErrorOffset(text);
    const { line, column } = lineAndColumn(text, offset < 0 ? text.length : offset);
    // V8 appends a copy of the source ("…" is not valid JSON); the position says it better.
    const reason = errorMessage(error)
      .replace(/,\s*(\.\.\.)?".*$/s, '')
      .replace(/ in JSON at position \d+.*$/s, '');
    throw new ConfigError(
      `config ${file} is not valid JSON at line ${line}, column ${column}: ${reason}`,
      'mcp_config.json is plain JSON: no comments, no trailing commas, double-quoted strings',
    );
  }
}

export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lastBreak = before.lastIndexOf('\n');
  return { line: before.split('\n').length, column: offset - lastBreak };
}

/** Thrown inside the scanner to stop at the first error. */
class SyntaxStop {
  constructor(readonly offset: number) {}
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const ESCAPES = '"\\/bfnrt';
const LITERALS = ['true', 'false', 'null'];

/** A strict RFC 8259 recogniser: it only checks syntax, and stops at the first error. */
class JsonScanner {
  private at = 0;

  constructor(private readonly text: string) {}

  document(): void {
    this.value();
    this.skipSpace();
    if (this.at < this.text.length) this.fail();
  }

  private fail(): never {
    throw new SyntaxStop(this.at);
  }

  private char(): string {
    return this.text.charAt(this.at);
  }

  private skipSpace(): void {
    while (this.at < this.text.length && ' \t\n\r'.includes(this.char())) this.at += 1;
  }

  private expect(char: string): void {
    if (this.char() !== char) this.fail();
    this.at += 1;
  }

  private value(): void {
    this.skipSpace();
    const char = this.char();
    if (char === '{') return this.sequence('}', () => this.member());
    if (char === '[') return this.sequence(']', () => this.value());
    if (char === '"') return this.string();
    const literal = LITERALS.find((word) => this.text.startsWith(word, this.at));
    if (literal !== undefined) {
      this.at += literal.length;
      return;
    }
    NUMBER.lastIndex = this.at;
    if (!NUMBER.test(this.text)) this.fail();
    this.at = NUMBER.lastIndex;
  }

  private sequence(close: string, item: () => void): void {
    this.at += 1;
    this.skipSpace();
    if (this.char() !== close) {
      for (;;) {
        item();
        this.skipSpace();
        if (this.char() === close) break;
        this.expect(',');
      }
    }
    this.at += 1;
  }

  private member(): void {
    this.skipSpace();
    this.string();
    this.skipSpace();
    this.expect(':');
    this.value();
  }

  private string(): void {
    this.expect('"');
    for (let char = this.char(); char !== '"'; char = this.char()) {
      if (char === '' || char < ' ') this.fail();
      if (char === '\\') this.escape();
      this.at += 1;
    }
    this.at += 1;
  }

  /** At a backslash: leaves `at` on the escape's last character. */
  private escape(): void {
    this.at += 1;
    const char = this.char();
    if (char === 'u') {
      if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.at + 1, this.at + 5))) this.fail();
      this.at += 4;
    } else if (char === '' || !ESCAPES.includes(char)) {
      this.fail();
    }
  }
}

/** Offset of the first JSON syntax error in `text`, or -1 when it is valid. */
export function jsonErrorOffset(text: string): number {
  try {
    new JsonScanner(text).document();
    return -1;
  } catch (error) {
    if (error instanceof SyntaxStop) return error.offset;
    // Nesting deep enough to overflow the stack: no position, the parser's words stand.
    if (error instanceof RangeError) return -1;
    throw error;
  }
}
